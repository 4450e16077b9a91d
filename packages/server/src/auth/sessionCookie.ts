import crypto from "node:crypto";
import { hmac, safeEqual } from "./secretKey";

/**
 * The session lives in a signed cookie: who is signed in (user id plus the user's session token,
 * so a password or email change ends other sessions), the CSRF secret, and when it expires.
 */
export interface SessionData {
  userId: number | null;
  userToken: string | null;
  csrfSecret: string;
  expiresAt: number;
  /**
   * Names this sign-in, set with userId; logout records it as ended (store/endedSessions.ts), so
   * copies of the cookie, and cookies renewed by answers still in flight, stop working.
   */
  sessionId?: string;
}

export const SESSION_COOKIE = "session";
export const REMEMBER_COOKIE = "remember_token";
export const CSRF_COOKIE = "csrf_token";

export function newCsrfSecret(): string {
  return crypto.randomBytes(16).toString("base64url");
}

export function newSessionId(): string {
  return crypto.randomBytes(18).toString("base64url");
}

export function sign(key: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${hmac(key, body)}`;
}

export function unsign<T>(key: Buffer, value: string | undefined): T | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  if (!safeEqual(value.slice(dot + 1), hmac(key, body))) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
  } catch {
    return null;
  }
}

export function readSession(
  key: Buffer,
  value: string | undefined,
  nowSeconds: number,
): SessionData | null {
  const data = unsign<SessionData>(key, value);
  if (!data || typeof data.csrfSecret !== "string" || typeof data.expiresAt !== "number")
    return null;
  return data.expiresAt > nowSeconds ? data : null;
}

/** Remember-me cookie: restores the session (the same sign-in) after it expired. */
export interface RememberData {
  userId: number;
  userToken: string;
  sessionId: string;
  expiresAt: number;
}

export function readRemember(
  key: Buffer,
  value: string | undefined,
  nowSeconds: number,
): RememberData | null {
  const data = unsign<RememberData>(key, value);
  if (
    !data ||
    typeof data.userId !== "number" ||
    typeof data.userToken !== "string" ||
    typeof data.sessionId !== "string"
  )
    return null;
  return data.expiresAt > nowSeconds ? data : null;
}
