import { hmac, safeEqual } from "./secretKey";

/**
 * Signed, timestamped tokens for invite, reset and verify links. The token carries the user id and
 * a fingerprint of the user's session token, which changes when the password is set: a link
 * becomes useless once used (single-use) or after its max age (expiry).
 */
export type TokenPurpose = "invite" | "reset" | "verify";

export type TokenCheck =
  | { ok: true; userId: number; fingerprint: string }
  | { ok: false; reason: "bad-signature" | "expired" };

export function makeToken(
  key: Buffer,
  purpose: TokenPurpose,
  userId: number,
  fingerprint: string,
  nowMs = Date.now(),
): string {
  const payload = `${userId}.${Math.floor(nowMs / 1000).toString(36)}.${fingerprint.slice(0, 12)}`;
  return `${payload}.${hmac(key, `${purpose}:${payload}`)}`;
}

export function readToken(
  key: Buffer,
  purpose: TokenPurpose,
  token: string,
  maxAgeSeconds: number,
  nowMs = Date.now(),
): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 4) return { ok: false, reason: "bad-signature" };
  const [userId, issued, fingerprint, signature] = parts as [string, string, string, string];
  const payload = `${userId}.${issued}.${fingerprint}`;
  if (!safeEqual(signature, hmac(key, `${purpose}:${payload}`))) {
    return { ok: false, reason: "bad-signature" };
  }
  const issuedAt = parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || nowMs / 1000 - issuedAt > maxAgeSeconds) {
    return { ok: false, reason: "expired" };
  }
  return { ok: true, userId: Number(userId), fingerprint };
}
