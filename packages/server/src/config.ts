import { isIP } from "node:net";
import path from "node:path";
import { DEFAULT_RESULT_LIMITS, type ResultLimits } from "./results/limits";
import { secretKeyWeakness } from "./auth/secretKey";
import { DEFAULT_FAIRNESS, type FairnessLimits } from "./execution/fairness";
import { reportsConfig, type ReportsConfig } from "./reports/config";
import type { ResultsStorageConfig } from "./results/objectChunks";
import { bool, ConfigError, int, list, optional, str, type Env } from "./configEnv";
import {
  googleConfig,
  oidcConfig,
  type GoogleConfig,
  type OidcConfig,
} from "./auth/providers/oidcConfig";
import { ldapConfig, type LdapConfig } from "./auth/providers/ldapConfig";
import { samlConfig, type SamlConfig } from "./auth/providers/samlConfig";

/**
 * Every setting of the server, read once from the environment (SIGHTLINE_* variables) and
 * validated. A bad value stops the start with a message that names the variable.
 */
export interface Config {
  mode: "embedded" | "scaled";
  /** Scheduled reports' renderer (reports/config.ts). */
  reports: ReportsConfig;
  port: number;
  host: string;
  dataDir: string;
  /** SQLite file path (embedded) or a postgres:// URL. */
  databaseUrl: string;
  redisUrl: string | null;
  /** null in embedded mode until loaded/generated from the data folder. */
  secretKey: string | null;
  /** The public base URL used in invite/reset links, e.g. http://localhost:5000 */
  baseUrl: string;
  fileDataDir: string | null;
  sessionLifetimeSeconds: number;
  rememberLifetimeSeconds: number;
  cookieSecure: boolean;
  loginRateLimitPerHour: number;
  forgotRateLimitPerHour: number;
  /** Public dashboards: the youngest result age (s) a run by a share key may ask for. */
  publicMinResultAge: number;
  /** Public dashboards: requests per minute and client address made with a share key. */
  publicRateLimitPerMinute: number;
  inviteTokenMaxAgeSeconds: number;
  logLevel: string;
  mail: MailConfig;
  /** Addresses (CIDR) that outbound requests may reach despite being internal. */
  outboundAllowedRanges: string[];
  workerConcurrency: number;
  /** Fair queues (execution/fairness.ts): per data source running, per user waiting. */
  fairness: FairnessLimits;
  /**
   * How long a worker's lock on a running query lasts unless renewed (it is, while the worker
   * lives): a query whose worker died is reported failed at most this long after the death.
   */
  workerLockSeconds: number;
  queryTimeoutSeconds: number;
  /** Time limit of a schema read (the whole schema, or one level of the lazy schema). */
  schemaTimeoutSeconds: number;
  allowCustomJsVisualizations: boolean;
  /** Default tile server of map visualizations ({z}/{x}/{y} template); "" for none. */
  mapTileUrl: string;
  autoPublishNamedQueries: boolean;
  /** Hides the web app's Unpublish (client_config.disablePublish, as Redash's client setting). */
  disablePublish: boolean;
  /** Row and byte caps of stored and displayed results. */
  resultLimits: ResultLimits;
  /** SIGHTLINE_RESULTS_URL: new results' chunks in S3-compatible object storage; null: database. */
  resultsStorage: ResultsStorageConfig | null;
  /** Origins allowed to read results cross-origin (`*` = any); empty = no CORS headers. */
  corsOrigins: string[];
  corsAllowCredentials: boolean;
  /** Email domains refused for new users (lower-case). */
  blockedEmailDomains: string[];
  /** Prefix of every Redis key (queue, locks, scheduler lock). */
  redisPrefix: string;
  /**
   * How requests without a session authenticate (api-platform.md §2.4): `api_key` (Redash's
   * default) or `hmac` (signed, expiring links; see auth/hmac.ts).
   */
  authType: "api_key" | "hmac";
  /**
   * Addresses (or CIDR ranges) of the reverse proxies whose X-Forwarded-For is believed, e.g. for
   * the sign-in rate limits. Anyone else could name any address in that header.
   */
  trustedProxies: string[];
  /**
   * Redash's remote-user login (GET /remote_user/login, auth/providers/trustedHeader.ts): a
   * reverse proxy that signed the person in names them by e-mail in `remoteUserHeader`. Believed
   * only from an address in `trustedProxies`; enabling it with no trusted proxy refuses to start.
   */
  remoteUserLoginEnabled: boolean;
  remoteUserHeader: string;
  /**
   * Admins read other users' API keys (GET /api/users/<id>), as in Redash. Off by default: on only
   * while a migration tool such as redash-migrate needs them to act as each query's owner.
   */
  showApiKeysToAdmins: boolean;
  /**
   * The bearer token /metrics asks for (Prometheus' scrape config sends it). Unset: /metrics is
   * off and answers 404.
   */
  metricsToken: string | null;
  /**
   * SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: /metrics also answers, without the token, a scrape
   * whose connection comes from an address in `trustedProxies` and that no proxy relayed (no
   * X-Forwarded-For). Off by default.
   */
  metricsFromTrustedProxies: boolean;
  /** Where `sightline worker` and `sightline scheduler` serve /metrics (null: they don't). */
  metricsPort: number | null;
  /** Versions kept per query or dashboard (oldest pruned, never the current one); 0 keeps all. */
  versionsPerObject: number;
  /** SIGHTLINE_UPLOAD_MAX_BYTES: the largest file an admin may upload to a data source. */
  uploadMaxBytes: number;
  /** Single sign-on methods read from the environment (docs/single-sign-on.md). */
  oidc: OidcConfig;
  google: GoogleConfig;
  ldap: LdapConfig;
  saml: SamlConfig;
}

export interface MailConfig {
  server: string | null;
  port: number;
  useTls: boolean;
  username: string | null;
  password: string | null;
  defaultSender: string | null;
}

export { ConfigError };

function resultLimits(env: Env): ResultLimits {
  const maxRows = int(env, "SIGHTLINE_RESULT_MAX_ROWS", DEFAULT_RESULT_LIMITS.maxRows, 1);
  const displayRows = int(
    env,
    "SIGHTLINE_RESULT_DISPLAY_ROWS",
    Math.min(maxRows, DEFAULT_RESULT_LIMITS.displayRows),
    1,
  );
  if (displayRows > maxRows) {
    throw new ConfigError(
      `SIGHTLINE_RESULT_DISPLAY_ROWS (${displayRows}) cannot be larger than SIGHTLINE_RESULT_MAX_ROWS (${maxRows})`,
    );
  }
  return {
    maxRows,
    displayRows,
    maxBytes: int(env, "SIGHTLINE_RESULT_MAX_BYTES", DEFAULT_RESULT_LIMITS.maxBytes, 1024),
    rowsPerChunk: DEFAULT_RESULT_LIMITS.rowsPerChunk,
  };
}

function resultsStorage(env: Env): ResultsStorageConfig | null {
  const url = optional(env, "SIGHTLINE_RESULTS_URL");
  if (url === null) return null;
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/[^?#\s]*)?$/.exec(url);
  if (!match) {
    throw new ConfigError(`SIGHTLINE_RESULTS_URL must look like s3://bucket/prefix, got "${url}"`);
  }
  const endpoint = optional(env, "AWS_ENDPOINT_URL_S3") ?? optional(env, "AWS_ENDPOINT_URL");
  if (endpoint !== null && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new ConfigError(
      `AWS_ENDPOINT_URL must be an http(s) URL like http://127.0.0.1:9000, got "${endpoint}"`,
    );
  }
  return {
    url,
    bucket: match[1]!,
    prefix: (match[2] ?? "").replace(/^\/+|\/+$/g, ""),
    endpoint,
    region: optional(env, "AWS_REGION") ?? optional(env, "AWS_DEFAULT_REGION") ?? "us-east-1",
    accessKeyId: optional(env, "AWS_ACCESS_KEY_ID"),
    secretAccessKey: optional(env, "AWS_SECRET_ACCESS_KEY"),
  };
}

function corsOrigins(env: Env): string[] {
  const origins = list(env, "SIGHTLINE_CORS_ORIGINS", []);
  for (const origin of origins) {
    if (origin !== "*" && !/^https?:\/\/[^/\s?#]+$/i.test(origin)) {
      throw new ConfigError(
        `SIGHTLINE_CORS_ORIGINS must list origins like https://example.com (or *), got "${origin}"`,
      );
    }
  }
  return origins;
}

function remoteUser(env: Env): Pick<Config, "remoteUserLoginEnabled" | "remoteUserHeader"> {
  const enabled = bool(env, "SIGHTLINE_REMOTE_USER_LOGIN_ENABLED", false);
  const header = str(env, "SIGHTLINE_REMOTE_USER_HEADER", "X-Forwarded-Remote-User");
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) {
    throw new ConfigError(`SIGHTLINE_REMOTE_USER_HEADER must be a header name, got "${header}"`);
  }
  if (enabled && trustedProxies(env).length === 0) {
    throw new ConfigError(
      "SIGHTLINE_REMOTE_USER_LOGIN_ENABLED needs SIGHTLINE_TRUSTED_PROXIES to list the reverse proxy that sets the header; otherwise any client could send it",
    );
  }
  return { remoteUserLoginEnabled: enabled, remoteUserHeader: header };
}

function trustedProxies(env: Env): string[] {
  const proxies = list(env, "SIGHTLINE_TRUSTED_PROXIES", ["127.0.0.1", "::1"]);
  if (proxies.length === 1 && proxies[0] === "none") return [];
  for (const proxy of proxies) {
    const [address, prefix] = proxy.split("/");
    const version = isIP(address ?? "");
    const max = version === 4 ? 32 : 128;
    if (
      version === 0 ||
      (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= max))
    ) {
      throw new ConfigError(
        `SIGHTLINE_TRUSTED_PROXIES must list addresses or ranges like 10.0.0.0/8 (or be "none"), got "${proxy}"`,
      );
    }
  }
  return proxies;
}

function blockedEmailDomains(env: Env): string[] {
  const domains = list(env, "SIGHTLINE_BLOCKED_EMAIL_DOMAINS", ["qq.com"]).map((d) =>
    d.toLowerCase(),
  );
  if (domains.length === 1 && domains[0] === "none") return [];
  for (const domain of domains) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) {
      throw new ConfigError(
        `SIGHTLINE_BLOCKED_EMAIL_DOMAINS must list domains like example.com (or be "none"), got "${domain}"`,
      );
    }
  }
  return domains;
}

function metricsToken(env: Env): string | null {
  const token = optional(env, "SIGHTLINE_METRICS_TOKEN");
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new ConfigError(
      "SIGHTLINE_METRICS_TOKEN must be at least 16 printable characters without spaces; make one with: openssl rand -hex 32",
    );
  }
  return token;
}

function metricsFromTrustedProxies(env: Env): boolean {
  const enabled = bool(env, "SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES", false);
  if (enabled && trustedProxies(env).length === 0) {
    throw new ConfigError(
      "SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES needs SIGHTLINE_TRUSTED_PROXIES to list the addresses allowed to scrape /metrics",
    );
  }
  return enabled;
}

const DEFAULT_MAP_TILE_URL = "//{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";

function mapTileUrl(env: Env): string {
  const raw = env.SIGHTLINE_MAP_TILE_URL;
  if (raw === undefined) return DEFAULT_MAP_TILE_URL;
  if (raw === "" || raw === "none") return "";
  if (
    !/^(https?:)?\/\//.test(raw) ||
    !raw.includes("{z}") ||
    !raw.includes("{x}") ||
    !raw.includes("{y}")
  ) {
    throw new ConfigError(
      `SIGHTLINE_MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y}, or "none"; got "${raw}"`,
    );
  }
  return raw;
}

/** Reads and validates the configuration. Throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(str(env, "SIGHTLINE_DATA_DIR", "./data"));
  const databaseUrl = str(env, "SIGHTLINE_DATABASE_URL", path.join(dataDir, "sightline.db"));
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError(
      `SIGHTLINE_DATABASE_URL must be a postgres:// URL or a SQLite file path, got "${databaseUrl}"`,
    );
  }
  const redisUrl = optional(env, "SIGHTLINE_REDIS_URL");
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new ConfigError(`SIGHTLINE_REDIS_URL must be a redis:// URL, got "${redisUrl}"`);
  }
  const mode = redisUrl ? "scaled" : "embedded";
  const secretKey = optional(env, "SIGHTLINE_SECRET_KEY");
  if (secretKey !== null && secretKey.length < 32) {
    throw new ConfigError("SIGHTLINE_SECRET_KEY must be at least 32 characters long");
  }
  const weakness = secretKey === null ? null : secretKeyWeakness(secretKey);
  if (weakness) {
    throw new ConfigError(
      `SIGHTLINE_SECRET_KEY is too easy to guess (${weakness}); make a random one with: openssl rand -hex 32`,
    );
  }
  if (mode === "scaled" && secretKey === null) {
    throw new ConfigError(
      "SIGHTLINE_SECRET_KEY is required in scaled mode (SIGHTLINE_REDIS_URL is set)",
    );
  }
  const port = int(env, "SIGHTLINE_PORT", 5000, 0, 65535);
  const host = str(env, "SIGHTLINE_HOST", mode === "embedded" ? "127.0.0.1" : "0.0.0.0");
  const baseUrl = str(
    env,
    "SIGHTLINE_BASE_URL",
    `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`,
  ).replace(/\/+$/, "");
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new ConfigError(
      `SIGHTLINE_BASE_URL must start with http:// or https://, got "${baseUrl}"`,
    );
  }
  const fileDataDirRaw = optional(env, "SIGHTLINE_FILE_DATA_DIR");
  const logLevel = str(env, "SIGHTLINE_LOG_LEVEL", "info");
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(
      `SIGHTLINE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
  const ranges = optional(env, "SIGHTLINE_OUTBOUND_ALLOWED_RANGES");
  const redisPrefix = str(env, "SIGHTLINE_REDIS_PREFIX", "sightline");
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) {
    throw new ConfigError(
      `SIGHTLINE_REDIS_PREFIX may hold only letters, digits and _ . : - (at most 64), got "${redisPrefix}"`,
    );
  }
  const authType = str(env, "SIGHTLINE_AUTH_TYPE", "api_key");
  if (authType !== "api_key" && authType !== "hmac") {
    throw new ConfigError(`SIGHTLINE_AUTH_TYPE must be api_key or hmac, got "${authType}"`);
  }
  return {
    mode,
    reports: reportsConfig(env, port),
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    secretKey,
    baseUrl,
    fileDataDir: fileDataDirRaw ? path.resolve(fileDataDirRaw) : path.join(dataDir, "files"),
    sessionLifetimeSeconds: int(env, "SIGHTLINE_SESSION_LIFETIME", 6 * 3600, 60),
    rememberLifetimeSeconds: int(env, "SIGHTLINE_REMEMBER_LIFETIME", 31 * 86400, 60),
    cookieSecure: bool(env, "SIGHTLINE_COOKIE_SECURE", baseUrl.startsWith("https://")),
    loginRateLimitPerHour: int(env, "SIGHTLINE_LOGIN_RATE_LIMIT", 50, 1),
    forgotRateLimitPerHour: int(env, "SIGHTLINE_FORGOT_RATE_LIMIT", 10, 1),
    publicMinResultAge: int(env, "SIGHTLINE_PUBLIC_MIN_RESULT_AGE", 60, 0),
    publicRateLimitPerMinute: int(env, "SIGHTLINE_PUBLIC_RATE_LIMIT", 600, 1),
    inviteTokenMaxAgeSeconds: int(env, "SIGHTLINE_INVITE_TOKEN_MAX_AGE", 7 * 86400, 60),
    logLevel,
    mail: {
      server: optional(env, "SIGHTLINE_MAIL_SERVER"),
      port: int(env, "SIGHTLINE_MAIL_PORT", 25, 1, 65535),
      useTls: bool(env, "SIGHTLINE_MAIL_USE_TLS", false),
      username: optional(env, "SIGHTLINE_MAIL_USERNAME"),
      password: optional(env, "SIGHTLINE_MAIL_PASSWORD"),
      defaultSender: optional(env, "SIGHTLINE_MAIL_DEFAULT_SENDER"),
    },
    outboundAllowedRanges: ranges
      ? ranges
          .split(",")
          .map((r) => r.trim())
          .filter(Boolean)
      : [],
    workerConcurrency: int(env, "SIGHTLINE_WORKER_CONCURRENCY", 4, 1, 256),
    fairness: {
      perDataSource: int(
        env,
        "SIGHTLINE_DATA_SOURCE_MAX_RUNNING",
        DEFAULT_FAIRNESS.perDataSource,
        0,
        1024,
      ),
      waitingPerUser: int(
        env,
        "SIGHTLINE_USER_MAX_WAITING",
        DEFAULT_FAIRNESS.waitingPerUser,
        0,
        100_000,
      ),
    },
    workerLockSeconds: int(env, "SIGHTLINE_WORKER_LOCK_SECONDS", 20, 2, 600),
    queryTimeoutSeconds: int(env, "SIGHTLINE_QUERY_TIMEOUT", 300, 1),
    schemaTimeoutSeconds: int(env, "SIGHTLINE_SCHEMA_TIMEOUT", 60, 1, 3600),
    allowCustomJsVisualizations: bool(env, "SIGHTLINE_ALLOW_CUSTOM_JS_VISUALIZATIONS", false),
    mapTileUrl: mapTileUrl(env),
    autoPublishNamedQueries: bool(env, "SIGHTLINE_AUTO_PUBLISH_NAMED_QUERIES", true),
    disablePublish: bool(env, "SIGHTLINE_DISABLE_PUBLISH", false),
    resultLimits: resultLimits(env),
    resultsStorage: resultsStorage(env),
    corsOrigins: corsOrigins(env),
    corsAllowCredentials: bool(env, "SIGHTLINE_CORS_ALLOW_CREDENTIALS", false),
    blockedEmailDomains: blockedEmailDomains(env),
    redisPrefix,
    authType,
    trustedProxies: trustedProxies(env),
    ...remoteUser(env),
    showApiKeysToAdmins: bool(env, "SIGHTLINE_SHOW_API_KEYS_TO_ADMINS", false),
    metricsToken: metricsToken(env),
    metricsFromTrustedProxies: metricsFromTrustedProxies(env),
    metricsPort: optional(env, "SIGHTLINE_METRICS_PORT")
      ? int(env, "SIGHTLINE_METRICS_PORT", 0, 1, 65535)
      : null,
    versionsPerObject: int(env, "SIGHTLINE_VERSIONS_PER_OBJECT", 0, 0),
    uploadMaxBytes: int(env, "SIGHTLINE_UPLOAD_MAX_BYTES", 100 * 1024 * 1024, 1),
    oidc: oidcConfig(env),
    google: googleConfig(env),
    ldap: ldapConfig(env),
    saml: samlConfig(env),
  };
}
