import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The server secret. Embedded mode generates one on first start and keeps it in the data folder,
 * readable only by its owner; scaled mode must be given SIGHTLINE_SECRET_KEY (config refuses to
 * start otherwise). There is never a default key.
 */
export function loadOrCreateSecretKey(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "secret_key");
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = crypto.randomBytes(48).toString("base64url");
  fs.writeFileSync(file, key + "\n", { mode: 0o600 });
  return key;
}

/** Keys for separate purposes, derived from the one secret so none is reused across purposes. */
export interface Keys {
  session: Buffer;
  csrf: Buffer;
  tokens: Buffer;
  encryption: Buffer;
}

export function deriveKeys(secret: string): Keys {
  const derive = (purpose: string) =>
    Buffer.from(crypto.hkdfSync("sha256", secret, "sightline", purpose, 32));
  return {
    session: derive("session-cookie"),
    csrf: derive("csrf"),
    tokens: derive("invite-reset-tokens"),
    encryption: derive("stored-credentials"),
  };
}

export function hmac(key: Buffer, data: string): string {
  return crypto.createHmac("sha256", key).update(data).digest("base64url");
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 40 random alphanumerics, as Redash's API keys. */
export function generateApiKey(length = 40): string {
  const bytes = crypto.randomBytes(length * 2);
  let out = "";
  for (const b of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (b < 248) out += ALPHANUMERIC[b % 62];
    if (out.length === length) break;
  }
  return out.length === length ? out : generateApiKey(length);
}
