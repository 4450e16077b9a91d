import { createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { Organization } from "../store/organizations";
import { findUserById } from "../store/users";
import {
  findRouteQuery,
  isActive,
  queryKeyIdentity,
  userIdentity,
  type Identity,
} from "./identity";

/**
 * The `hmac` auth type (api-platform.md §2.7): a link signed with an API key that works until it
 * expires, at most an hour ahead, so the key itself never travels. A link names the user whose
 * key signed it (`user_id`), or is signed with the key of the query its route names.
 */

/** How far ahead a link may expire, in seconds (Redash's fixed hour). */
export const MAX_LINK_LIFETIME_SECONDS = 3600;

/**
 * Python's `str(float(x))` for an epoch time: Redash reads `expires` as a float and signs its
 * text, so `1700000000` is signed as "1700000000.0". JavaScript writes the same shortest digits
 * except for that trailing ".0" (epoch seconds never reach the exponent forms).
 */
function pythonFloatText(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/** hex(HMAC-SHA1(key = API key, message = request path + expires as Redash writes it)). */
export function hmacSignature(apiKey: string, path: string, expires: number): string {
  return createHmac("sha1", apiKey)
    .update(path + pythonFloatText(expires))
    .digest("hex");
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface SignedRequest {
  /** The decoded path, without the query string. */
  path: string;
  signature: string | null;
  expires: string | null;
  userId: string | null;
  /** The query named by the route (`query_id`, or `id` on /api/queries/<id> routes). */
  routeQueryId: number | null;
}

/** The caller of a signed link, or null when it is unsigned, expired or signed wrongly. */
export async function identityFromHmac(
  db: Kysely<DB>,
  org: Organization,
  signed: SignedRequest,
  nowSeconds = Date.now() / 1000,
): Promise<Identity | null> {
  const { signature } = signed;
  const expires = Number(signed.expires);
  if (!signature || !signed.expires || !Number.isFinite(expires)) return null;
  if (!(nowSeconds < expires && expires <= nowSeconds + MAX_LINK_LIFETIME_SECONDS)) return null;

  if (signed.userId && /^\d{1,15}$/.test(signed.userId)) {
    const user = await findUserById(db, org.id, Number(signed.userId));
    if (
      user &&
      isActive(user) &&
      sameSignature(signature, hmacSignature(user.api_key, signed.path, expires))
    ) {
      return userIdentity(db, user, true);
    }
  }
  if (signed.routeQueryId !== null) {
    const query = await findRouteQuery(db, org, signed.routeQueryId);
    if (query && sameSignature(signature, hmacSignature(query.api_key, signed.path, expires))) {
      return queryKeyIdentity(db, org, query);
    }
  }
  return null;
}
