import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_FILE_MODE, ensurePrivateFolder } from "../dataFolder";

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
  ensurePrivateFolder(dataDir);
  const key = crypto.randomBytes(48).toString("base64url");
  fs.writeFileSync(file, key + "\n", { mode: PRIVATE_FILE_MODE });
  return key;
}

/** Fewer different characters than this and a key is a pattern, not random (hex has 16). */
const MIN_DISTINCT_CHARACTERS = 8;
/** Words of example and placeholder keys: a key holding one was typed, not generated. */
const PLACEHOLDER_WORDS = /change.?me|secret|passw(or)?d|example|placeholder|insecure|default/i;

/**
 * The length of the shortest unit the key repeats ("abcabcab" repeats 3), or null. The last
 * repetition may be cut short.
 */
function repeatedUnit(key: string): number | null {
  for (let unit = 1; unit <= key.length / 2; unit += 1) {
    let repeats = true;
    for (let i = unit; i < key.length && repeats; i += 1) repeats = key[i] === key[i - unit];
    if (repeats) return unit;
  }
  return null;
}

/**
 * Whether few of the key's neighbouring pairs differ: a pattern repeated with a change or two
 * ("abcdefgh" five times, one letter altered). 32 random hex digits have about 29 different pairs
 * of their 31; a repeated 8-character unit has 8 or 9. Capped so long random keys, whose pairs
 * must repeat once they outnumber the alphabet's, still pass.
 */
function fewDifferentPairs(key: string): boolean {
  const pairs = new Set<string>();
  for (let i = 1; i < key.length; i += 1) pairs.add(key.slice(i - 1, i + 1));
  return pairs.size < Math.min((key.length - 1) / 2, 64);
}

/**
 * Whether the key is mostly runs of characters a constant step apart ("0123456789abcdef…",
 * "acegikmo"): more than half its steps equal the one before. Random hex repeats a step about
 * one time in sixteen.
 */
function mostlySequences(key: string): boolean {
  let same = 0;
  for (let i = 2; i < key.length; i += 1) {
    const step = key.charCodeAt(i) - key.charCodeAt(i - 1);
    if (step === key.charCodeAt(i - 1) - key.charCodeAt(i - 2)) same += 1;
  }
  return same > (key.length - 2) / 2;
}

/**
 * Why a configured secret key is too easy to guess, or null. A randomly generated key of 32 or
 * more characters, hex included, passes: 32 random hex digits hold fewer than 8 different ones
 * about once in ten million, and the pattern checks below are rarer still. The messages never
 * quote the key.
 */
export function secretKeyWeakness(key: string): string | null {
  const distinct = new Set(key).size;
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `it has only ${distinct} different characters`;
  }
  const word = PLACEHOLDER_WORDS.exec(key);
  if (word) return `it contains the placeholder word "${word[0]}"`;
  const unit = repeatedUnit(key);
  if (unit !== null) return `it repeats the same ${unit} characters`;
  if (fewDifferentPairs(key)) return "it is mostly a repeated pattern";
  if (mostlySequences(key)) return "it is mostly runs of consecutive characters (abcd…, 1234…)";
  return null;
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
