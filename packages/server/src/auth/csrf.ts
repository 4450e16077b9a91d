import { hmac, safeEqual } from "./secretKey";

/**
 * CSRF double submit: a token bound to the session's CSRF secret is set in the `csrf_token`
 * cookie on every response; state-changing calls must send it back in a header (or form field).
 */
export const CSRF_MAX_AGE_SECONDS = 6 * 3600;

export function makeCsrfToken(key: Buffer, csrfSecret: string, nowSeconds: number): string {
  const ts = nowSeconds.toString(36);
  return `${ts}.${hmac(key, `${csrfSecret}.${ts}`)}`;
}

/** Returns null when valid, otherwise the message of the 400 answer. */
export function checkCsrfToken(
  key: Buffer,
  csrfSecret: string,
  token: string | undefined,
  nowSeconds: number,
): string | null {
  if (!token) return "The CSRF token is missing.";
  const [ts, signature] = token.split(".");
  if (!ts || !signature || !safeEqual(signature, hmac(key, `${csrfSecret}.${ts}`))) {
    return "The CSRF token is invalid.";
  }
  if (nowSeconds - parseInt(ts, 36) > CSRF_MAX_AGE_SECONDS) return "The CSRF token has expired.";
  return null;
}
