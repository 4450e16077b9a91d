import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deriveKeys, generateApiKey, loadOrCreateSecretKey, secretKeyWeakness } from "./secretKey";
import { decrypt, encrypt } from "./encryption";
import { makeToken, readToken } from "./tokens";

describe("secret key", () => {
  it("is generated once into the data folder, readable only by its owner", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-key-"));
    const first = loadOrCreateSecretKey(null, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, "secret_key")).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecretKey(null, dir)).toBe(first);
    expect(loadOrCreateSecretKey("y".repeat(40), dir)).toBe("y".repeat(40));
    fs.rmSync(dir, { recursive: true });
  });

  it("derives different keys per purpose", () => {
    const keys = deriveKeys("z".repeat(40));
    expect(keys.session.equals(keys.csrf)).toBe(false);
    expect(keys.tokens.equals(keys.encryption)).toBe(false);
  });

  it("makes 40-character alphanumeric API keys", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(generateApiKey()).not.toBe(key);
  });
});

describe("guessable secret keys", () => {
  it.each([
    ["abcdefgh".repeat(5), "it repeats the same 8 characters"],
    ["01234567".repeat(5), "it repeats the same 8 characters"],
    ["0123456789abcdef".repeat(2), "it repeats the same 16 characters"],
    ["Xq7-pL2#".repeat(4) + "Xq7-", "it repeats the same 8 characters"],
    ["abcdefgh".repeat(4) + "abcdxfgh", "it is mostly a repeated pattern"],
    ["k9Fw2mQa".repeat(3) + "k9Fw2mQb" + "k9Fw2mQa", "it is mostly a repeated pattern"],
    ["0123456789abcdefghijklmnopqrstuvwxyz", "it is mostly runs of consecutive characters"],
    ["zyxwvutsrqponmlkjihgfedcba9876543210", "it is mostly runs of consecutive characters"],
    ["acegikmoqsuwyACEGIKMOQSUWY02468ace", "it is mostly runs of consecutive characters"],
    ["ab".repeat(20), "it has only 2 different characters"],
  ])("refuses %s (%s), never quoting it", (key, reason) => {
    const weakness = secretKeyWeakness(key);
    expect(weakness).toContain(reason);
    expect(weakness).not.toContain(key.slice(0, 4));
  });

  it("accepts random keys of every usual form and length", () => {
    for (let i = 0; i < 2000; i += 1) {
      for (const key of [
        crypto.randomBytes(16).toString("hex"),
        crypto.randomBytes(32).toString("hex"),
        crypto.randomBytes(512).toString("hex"),
        crypto.randomBytes(32).toString("base64"),
        crypto.randomBytes(48).toString("base64url"),
        generateApiKey(32),
      ]) {
        expect(secretKeyWeakness(key), key).toBeNull();
      }
    }
  });
});

describe("encryption of stored credentials", () => {
  const key = deriveKeys("k".repeat(40)).encryption;
  it("round-trips and hides the plaintext", () => {
    const stored = encrypt(key, '{"password":"s3cret"}');
    expect(stored).not.toContain("s3cret");
    expect(decrypt(key, stored)).toBe('{"password":"s3cret"}');
  });
  it("refuses tampered values and other keys", () => {
    const stored = encrypt(key, "hello");
    const parts = stored.split(".");
    parts[3] = Buffer.from("jello").toString("base64");
    expect(() => decrypt(key, parts.join("."))).toThrow();
    expect(() => decrypt(deriveKeys("o".repeat(40)).encryption, stored)).toThrow();
  });
});

describe("link tokens", () => {
  const key = deriveKeys("t".repeat(40)).tokens;
  it("carry the user and expire", () => {
    const token = makeToken(key, "invite", 7, "fingerprint-abc", 1_000_000_000);
    expect(readToken(key, "invite", token, 3600, 1_000_000_000 + 10_000)).toEqual({
      ok: true,
      userId: 7,
      fingerprint: "fingerprint-",
    });
    expect(readToken(key, "invite", token, 3600, 1_000_000_000 + 3_601_000)).toEqual({
      ok: false,
      reason: "expired",
    });
  });
  it("are bound to their purpose and signature", () => {
    const token = makeToken(key, "invite", 7, "fp");
    expect(readToken(key, "reset", token, 3600).ok).toBe(false);
    expect(readToken(key, "invite", token.replace(/^7/, "8"), 3600)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });
});
