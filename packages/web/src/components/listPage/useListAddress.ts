// The state of a paged list page kept in its address: q, tags, page, page_size and order.
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";

export const SEARCH_DEBOUNCE_MS = 200;

export type AddressChanges = Record<string, string | string[] | null>;

export interface ListAddress {
  q: string;
  tags: string[];
  page: number;
  pageSize: number;
  /** The sort sent to the server; empty while searching unless the user sorts the results. */
  order: string;
  /** What the search box shows; written to q 200 ms after typing stops (spec 3 §9). */
  search: string;
  setSearch: (value: string) => void;
  /** Writes q at once (Enter in the search box). */
  submitSearch: (value: string) => void;
  update: (changes: AddressChanges) => void;
}

export function useListAddress(defaults: { pageSize: number; order: string }): ListAddress {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const tags = params.getAll("tags");
  const page = Number(params.get("page")) || 1;
  const pageSize = Number(params.get("page_size")) || defaults.pageSize;
  // Search results come in the server's ranking order, so the default sort applies only without q.
  const order = params.get("order") ?? (q ? "" : defaults.order);
  const [search, setSearch] = useState(q);
  // The sort the user last chose (null: the default), brought back when the search is cleared.
  const savedOrder = useRef(params.get("order"));

  // Applied to the latest address, so a late debounced search never undoes a newer change.
  function write(changes: AddressChanges) {
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

  function update(changes: AddressChanges) {
    if ("order" in changes && !Array.isArray(changes.order)) savedOrder.current = changes.order;
    write(changes);
  }

  // Searching clears sorting and returns to page 1; clearing it restores the saved sort (spec 3 §4 Lists).
  function submitSearch(value: string) {
    write({ q: value || null, page: null, order: value ? null : savedOrder.current });
  }

  // The box follows q when the address changes (back/forward), and writes q after a pause.
  useEffect(() => setSearch(q), [q]);
  useEffect(() => {
    if (search === q) return;
    const id = setTimeout(() => submitSearch(search), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  return { q, tags, page, pageSize, order, search, setSearch, submitSearch, update };
}
