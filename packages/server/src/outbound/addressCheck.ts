import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { parseAllowedRanges, refusalReason } from "./addressPolicy";

/**
 * The outbound guard's verdict on an address when it is saved (SECURITY.md rule 12), with the
 * rules the client applies when it is used (client.ts): only http and https; a literal address or
 * a host name whose every address lies in a refused range is refused. A name that does not
 * resolve now is accepted: the client checks it again at every request.
 */

/** Every address a host name resolves to; [] when it does not resolve (now). */
export type Resolver = (hostname: string) => Promise<string[]>;

/** Slow DNS must not hold up a save: past this the name counts as not resolving now. */
const LOOKUP_TIMEOUT_MS = 3_000;

const resolveAll: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS);
  });
  const found = lookup(hostname, { all: true, verbatim: true }).then(
    (entries) => entries.map((entry) => entry.address),
    () => [],
  );
  try {
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Why the outbound client would refuse to send to `url`, or null when it would try. The answer
 * names the host and the address, never the rest of the URL (a webhook's path is its secret).
 */
export async function outboundRefusal(
  url: string,
  allowedRanges: readonly string[],
  resolve: Resolver = resolveAll,
): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return "This is not a valid URL.";
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return `Only http and https URLs are allowed (got ${target.protocol.slice(0, -1)}).`;
  }
  const allowed = allowedRanges.length ? parseAllowedRanges([...allowedRanges]) : null;
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(hostname)) return refusalReason(hostname, allowed);
  const addresses = await resolve(hostname);
  // As the client's lookup: any permitted address is used, so the name is refused only when all
  // of its addresses are.
  if (addresses.length === 0) return null;
  if (addresses.some((address) => refusalReason(address, allowed) === null)) return null;
  return `${hostname} resolves to ${addresses[0]}. ${refusalReason(addresses[0]!, allowed)}`;
}
