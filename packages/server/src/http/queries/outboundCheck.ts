import { outboundRefusal } from "../../outbound/addressCheck";
import { getRunner } from "../../runners/registry";
import { badRequest } from "../errors";

/**
 * Refuses, when a query is saved, text naming an address the server would refuse to fetch when
 * it runs (SECURITY.md rule 12: JSON and files by URL), with the guard's reason. The reason names
 * the host and address only, never the rest of the URL.
 */
export async function refuseBlockedAddresses(
  dataSourceType: string,
  queryText: string,
  allowedRanges: readonly string[],
): Promise<void> {
  for (const url of getRunner(dataSourceType)?.outboundUrls?.(queryText) ?? []) {
    const reason = await outboundRefusal(url, allowedRanges);
    if (reason) throw badRequest(`The query's URL cannot be fetched: ${reason}`);
  }
}
