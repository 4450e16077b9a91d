// The state of a paged list page kept in its address: q, tags, page, page_size and order.
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

export const SEARCH_DEBOUNCE_MS = 200;

export type AddressChanges = Record<string, string | string[] | null>;

export interface ListAddress {
  q: string;
  tags: string[];
  page: number;
  pageSize: number;
  order: string;
  /** What the search box shows; written to q 200 ms after typing stops (spec 3 §9). */
  search: string;
  setSearch: (value: string) => void;
  update: (changes: AddressChanges) => void;
}

export function useListAddress(defaults: { pageSize: number; order: string }): ListAddress {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const tags = params.getAll("tags");
  const page = Number(params.get("page")) || 1;
  const pageSize = Number(params.get("page_size")) || defaults.pageSize;
  const order = params.get("order") ?? defaults.order;
  const [search, setSearch] = useState(q);

  // Applied to the latest address, so a late debounced search never undoes a newer change.
  function update(changes: AddressChanges) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          next.delete(key);
          if (Array.isArray(value)) value.forEach((v) => next.append(key, v));
          else if (value !== null && value !== "") next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  }

  // The box follows q when the address changes (back/forward), and writes q after a pause.
  useEffect(() => setSearch(q), [q]);
  useEffect(() => {
    if (search === q) return;
    // Searching returns to page 1 (spec 3 §4 Lists).
    const id = setTimeout(() => update({ q: search || null, page: null }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  return { q, tags, page, pageSize, order, search, setSearch, update };
}
