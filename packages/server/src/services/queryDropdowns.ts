import type { Kysely } from "kysely";
import {
  DetachedDropdownQueryError,
  dropdownValuesFromResult,
  type DropdownValue,
  type ParameterDefinition,
  type ValidationContext,
} from "@sightline/core";
import type { DB } from "../store/schema";
import { findQuery, type Query } from "../store/queries";
import { loadResultMeta, readResultRows } from "../results";
import { forbidden } from "../http/errors";
import { isOwnResult, readerResultRefusal } from "../policies/results";
import type { RunPrincipal } from "../runners/types";

/** Rows read from a dropdown source's result at most (a dropdown is a list for people). */
const MAX_DROPDOWN_ROWS = 10_000;

/**
 * Dropdown values of a query-based parameter (api-queries.md §8.5): from the source query's
 * latest result; [] when it has none. Throws DetachedDropdownQueryError when it has no data source,
 * and a 403 HttpError when the result may not be shown to `reader`, the principal the values are
 * read for (undefined when the caller cannot name one; see readerResultRefusal). The result is
 * checked as the result routes check it (SECURITY.md rule 5): only the source query's own result
 * counts (a pointer to one elsewhere is no result), and the reader must be allowed to see it.
 */
export async function dropdownValues(
  db: Kysely<DB>,
  orgId: number,
  source: Query,
  reader?: RunPrincipal | null,
): Promise<DropdownValue[]> {
  if (source.data_source_id === null) throw new DetachedDropdownQueryError();
  if (source.latest_query_data_id === null) return [];
  const meta = await loadResultMeta(db, orgId, source.latest_query_data_id);
  if (!meta || !isOwnResult(source, meta, Boolean(reader?.apiKey))) return [];
  const refusal = await readerResultRefusal(db, meta, reader);
  if (refusal) throw forbidden(refusal);
  const rows: Record<string, unknown>[] = [];
  for await (const batch of readResultRows(db, meta, MAX_DROPDOWN_ROWS)) {
    for (const row of batch) {
      rows.push(Object.fromEntries(meta.columns.map((c, i) => [c.name, row[i] ?? null])));
    }
  }
  return dropdownValuesFromResult({ columns: meta.columns, rows });
}

/**
 * The validation context for a parameter schema: the allowed values of every `query` parameter,
 * loaded up front (validation itself is synchronous).
 */
export async function validationContext(
  db: Kysely<DB>,
  orgId: number,
  schema: readonly ParameterDefinition[],
  reader?: RunPrincipal | null,
): Promise<ValidationContext> {
  const options = new Map<number, string[] | "detached" | "missing">();
  for (const def of schema) {
    if (def.type !== "query") continue;
    const id = Number(def.queryId);
    if (options.has(id)) continue;
    const source = Number.isSafeInteger(id) ? await findQuery(db, orgId, id) : null;
    if (!source) options.set(id, "missing");
    else if (source.data_source_id === null) options.set(id, "detached");
    else
      options.set(
        id,
        (await dropdownValues(db, orgId, source, reader)).map((d) => d.value),
      );
  }
  return {
    queryOptions(def) {
      const found = options.get(Number(def.queryId));
      if (found === "detached") throw new DetachedDropdownQueryError();
      if (found === undefined || found === "missing") throw new Error("Unknown dropdown query");
      return found;
    },
  };
}
