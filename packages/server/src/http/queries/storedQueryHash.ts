// The hash a saved query stores, computed in one place.
import { queryHashSource } from "@sightline/core";
import { queryHash } from "../../execution/hash";
import { findRunner } from "../../services/dataSourceTypes";
import { parameterSchema, type Query } from "../../store/queries";

/**
 * `Query.query_hash` (api-queries.md §6.2): saved defaults rendered in, the runner's auto-limit
 * step, hash normalisation, MD5. The one place the stored hash is computed.
 */
export function storedQueryHash(
  q: Pick<Query, "query" | "options" | "data_source_id">,
  dataSourceType: string | null,
): string {
  const runner = dataSourceType === null ? null : findRunner(dataSourceType);
  const source = queryHashSource({
    text: q.query,
    parameters: parameterSchema(q.options),
    applyAutoLimit: q.options.apply_auto_limit === true,
    runner: q.data_source_id === null || !runner ? null : runner,
  });
  return queryHash(source);
}
