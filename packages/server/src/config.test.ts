import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has the embedded defaults", () => {
    const config = loadConfig({});
    expect(config.mode).toBe("embedded");
    expect(config.port).toBe(5000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.databaseUrl.endsWith("/data/sightline.db")).toBe(true);
    expect(config.secretKey).toBeNull();
    expect(config.baseUrl).toBe("http://127.0.0.1:5000");
    expect(config.disablePublish).toBe(false);
    expect(loadConfig({ SIGHTLINE_DISABLE_PUBLISH: "true" }).disablePublish).toBe(true);
  });

  it("turns /metrics on only with SIGHTLINE_METRICS_TOKEN", () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    const token = crypto.randomBytes(16).toString("hex");
    expect(loadConfig({ SIGHTLINE_METRICS_TOKEN: token }).metricsToken).toBe(token);
  });

  it.each([
    [{ SIGHTLINE_PORT: "abc" }, "SIGHTLINE_PORT"],
    [{ SIGHTLINE_PORT: "70000" }, "SIGHTLINE_PORT"],
    [{ SIGHTLINE_DATABASE_URL: "mysql://x" }, "SIGHTLINE_DATABASE_URL"],
    [{ SIGHTLINE_REDIS_URL: "http://x" }, "SIGHTLINE_REDIS_URL"],
    [{ SIGHTLINE_SECRET_KEY: "short" }, "SIGHTLINE_SECRET_KEY"],
    [{ SIGHTLINE_REDIS_URL: "redis://127.0.0.1:6379" }, "SIGHTLINE_SECRET_KEY"],
    [{ SIGHTLINE_COOKIE_SECURE: "maybe" }, "SIGHTLINE_COOKIE_SECURE"],
    [{ SIGHTLINE_LOG_LEVEL: "loud" }, "SIGHTLINE_LOG_LEVEL"],
    [{ SIGHTLINE_MAIL_PORT: "-1" }, "SIGHTLINE_MAIL_PORT"],
    [{ SIGHTLINE_BASE_URL: "ftp://x" }, "SIGHTLINE_BASE_URL"],
    [{ SIGHTLINE_MAP_TILE_URL: "tiles.example/{z}" }, "SIGHTLINE_MAP_TILE_URL"],
    [{ SIGHTLINE_RESULT_MAX_ROWS: "0" }, "SIGHTLINE_RESULT_MAX_ROWS"],
    [{ SIGHTLINE_RESULT_DISPLAY_ROWS: "many" }, "SIGHTLINE_RESULT_DISPLAY_ROWS"],
    [
      { SIGHTLINE_RESULT_MAX_ROWS: "10", SIGHTLINE_RESULT_DISPLAY_ROWS: "20" },
      "SIGHTLINE_RESULT_DISPLAY_ROWS",
    ],
    [{ SIGHTLINE_RESULT_MAX_BYTES: "12" }, "SIGHTLINE_RESULT_MAX_BYTES"],
    [{ SIGHTLINE_CORS_ORIGINS: "example.com" }, "SIGHTLINE_CORS_ORIGINS"],
    [{ SIGHTLINE_CORS_ORIGINS: "https://a.example/path" }, "SIGHTLINE_CORS_ORIGINS"],
    [{ SIGHTLINE_CORS_ALLOW_CREDENTIALS: "sometimes" }, "SIGHTLINE_CORS_ALLOW_CREDENTIALS"],
    [
      { SIGHTLINE_BLOCKED_EMAIL_DOMAINS: "qq.com, not a domain" },
      "SIGHTLINE_BLOCKED_EMAIL_DOMAINS",
    ],
    [{ SIGHTLINE_REDIS_PREFIX: "has space" }, "SIGHTLINE_REDIS_PREFIX"],
    [{ SIGHTLINE_WORKER_LOCK_SECONDS: "1" }, "SIGHTLINE_WORKER_LOCK_SECONDS"],
    [{ SIGHTLINE_SCHEMA_TIMEOUT: "0" }, "SIGHTLINE_SCHEMA_TIMEOUT"],
    [{ SIGHTLINE_SCHEMA_TIMEOUT: "1.5" }, "SIGHTLINE_SCHEMA_TIMEOUT"],
    [{ SIGHTLINE_AUTH_TYPE: "jwt" }, "SIGHTLINE_AUTH_TYPE"],
    [{ SIGHTLINE_METRICS_TOKEN: "too-short" }, "SIGHTLINE_METRICS_TOKEN"],
    [{ SIGHTLINE_METRICS_TOKEN: "has a space in it 0123456789" }, "SIGHTLINE_METRICS_TOKEN"],
    [{ SIGHTLINE_TRUSTED_PROXIES: "proxy.example" }, "SIGHTLINE_TRUSTED_PROXIES"],
    [{ SIGHTLINE_TRUSTED_PROXIES: "10.0.0.0/33" }, "SIGHTLINE_TRUSTED_PROXIES"],
  ])("refuses %o naming %s", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it.each([
    ["a".repeat(40), "only 1 different characters"],
    ["changemechangemechangemechangeme", "only 7 different characters"],
    ["changeme-to-a-long-random-string-please", 'placeholder word "changeme"'],
    ["My-Super-Secret-Key-For-Sightline-2024!", 'placeholder word "Secret"'],
    ["abcdefgh".repeat(5), "repeats the same 8 characters"],
    ["0123456789abcdef".repeat(2), "repeats the same 16 characters"],
  ])("refuses the guessable secret key %s, saying how to make one", (key, reason) => {
    const env = { SIGHTLINE_REDIS_URL: "redis://127.0.0.1:6379", SIGHTLINE_SECRET_KEY: key };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(reason);
    expect(() => loadConfig(env)).toThrow("openssl rand -hex 32");
  });

  it("accepts random keys, hex ones included", () => {
    for (const key of [
      "9f86d081884c7d659a2feaa0c55ad015",
      crypto.randomBytes(16).toString("hex"),
      crypto.randomBytes(32).toString("hex"),
      crypto.randomBytes(48).toString("base64url"),
    ]) {
      expect(loadConfig({ SIGHTLINE_SECRET_KEY: key }).secretKey).toBe(key);
    }
  });

  it("selects the scaled mode with Redis and a secret key", () => {
    const config = loadConfig({
      SIGHTLINE_REDIS_URL: "redis://127.0.0.1:6379",
      SIGHTLINE_SECRET_KEY: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      SIGHTLINE_DATABASE_URL: "postgres://u@h/db",
    });
    expect(config.mode).toBe("scaled");
    expect(config.host).toBe("0.0.0.0");
  });

  it("reads the result caps, CORS, blocked domains and Redis prefix", () => {
    const defaults = loadConfig({});
    expect(defaults.resultLimits).toMatchObject({
      maxRows: 1_000_000,
      displayRows: 100_000,
      maxBytes: 1024 ** 3,
    });
    expect(defaults.corsOrigins).toEqual([]);
    expect(defaults.corsAllowCredentials).toBe(false);
    expect(defaults.blockedEmailDomains).toEqual(["qq.com"]);
    expect(defaults.redisPrefix).toBe("sightline");
    const set = loadConfig({
      SIGHTLINE_RESULT_MAX_ROWS: "500",
      SIGHTLINE_RESULT_MAX_BYTES: "1048576",
      SIGHTLINE_CORS_ORIGINS: "https://a.example.com, http://localhost:3000",
      SIGHTLINE_CORS_ALLOW_CREDENTIALS: "true",
      SIGHTLINE_BLOCKED_EMAIL_DOMAINS: "Spam.example, junk.test",
      SIGHTLINE_REDIS_PREFIX: "team-a",
    });
    // The display cap follows a smaller export cap.
    expect(set.resultLimits).toMatchObject({ maxRows: 500, displayRows: 500, maxBytes: 1048576 });
    expect(set.corsOrigins).toEqual(["https://a.example.com", "http://localhost:3000"]);
    expect(set.corsAllowCredentials).toBe(true);
    expect(set.blockedEmailDomains).toEqual(["spam.example", "junk.test"]);
    expect(set.redisPrefix).toBe("team-a");
    expect(set.authType).toBe("api_key");
    expect(loadConfig({ SIGHTLINE_AUTH_TYPE: "hmac" }).authType).toBe("hmac");
    expect(set.trustedProxies).toEqual(["127.0.0.1", "::1"]);
    expect(loadConfig({ SIGHTLINE_TRUSTED_PROXIES: "none" }).trustedProxies).toEqual([]);
    expect(loadConfig({ SIGHTLINE_TRUSTED_PROXIES: "10.0.0.0/8, fd00::1" }).trustedProxies).toEqual(
      ["10.0.0.0/8", "fd00::1"],
    );
    expect(loadConfig({ SIGHTLINE_CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
    expect(loadConfig({ SIGHTLINE_BLOCKED_EMAIL_DOMAINS: "none" }).blockedEmailDomains).toEqual([]);
  });
});
