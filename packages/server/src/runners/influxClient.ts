// An InfluxDB data source's options (Redash's `url`, a DSN such as influxdb://user:pass@host:8086/db,
// or an http(s) URL) → the InfluxQL endpoint `/query` (1.x, and 2.x/3.x's v1-compatible one),
// with the credentials in the Authorization header, never in the URL.
import {
  basicAuthorization,
  serverRequest,
  ServerUnreachableError,
  textOption,
  type ServerTls,
} from "./serverHttp";
import type { DataSourceOptions } from "./types";

export const DEFAULT_URL = "http://127.0.0.1:8086";

export interface InfluxEndpoint {
  /** The server's base (scheme, host, port, path ending in "/"): no credentials. */
  base: URL;
  headers: Record<string, string>;
  /** The database queries run in (the DSN's path or the `db` option), or "" for none. */
  database: string;
  tls: ServerTls;
}

/** Reads Redash's DSN forms: influxdb://, https+influxdb://, and plain http(s):// URLs. */
export function influxEndpoint(options: DataSourceOptions): InfluxEndpoint {
  const raw = textOption(options, "url") ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `The InfluxDB URL is not a valid URL (expected e.g. influxdb://user:password@host:8086/db or ${DEFAULT_URL}).`,
    );
  }
  const schemes: Record<string, string> = {
    "influxdb:": "http:",
    "http+influxdb:": "http:",
    "https+influxdb:": "https:",
    "http:": "http:",
    "https:": "https:",
  };
  const protocol = schemes[url.protocol];
  if (!protocol) {
    throw new Error(
      `The InfluxDB URL's scheme ${url.protocol} is not supported (use influxdb://, https+influxdb://, http:// or https://).`,
    );
  }
  const dsnPath = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ""));
  const isDsn = url.protocol.endsWith("influxdb:");
  const port = url.port || (isDsn ? "8086" : "");
  const base = new URL(
    `${protocol}//${url.hostname}${port ? `:${port}` : ""}${isDsn ? "/" : url.pathname.replace(/\/*$/, "/")}`,
  );
  const user = textOption(options, "user") ?? (decodeURIComponent(url.username) || undefined);
  const password = textOption(options, "password") ?? decodeURIComponent(url.password);
  const token = textOption(options, "token");
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Token ${token.trim()}`;
  else if (user) headers.authorization = basicAuthorization(user, password ?? "");
  return {
    base,
    headers,
    database:
      textOption(options, "db") ?? (isDsn ? dsnPath : (url.searchParams.get("db") ?? "")) ?? "",
    tls: { rejectUnauthorized: options.verify_ssl !== false },
  };
}

export interface InfluxSeries {
  name?: string;
  tags?: Record<string, string>;
  columns: string[];
  values?: unknown[][];
}

export interface InfluxStatementResult {
  statement_id?: number;
  series?: InfluxSeries[];
  error?: string;
}

interface InfluxAnswer {
  results?: InfluxStatementResult[];
  error?: string;
  /** InfluxDB 2.x/3.x's error field. */
  message?: string;
}

/**
 * Runs InfluxQL through GET /query (the method for reading statements). Errors say what failed
 * in InfluxDB's or the network's own words; a statement's error fails the whole query.
 */
export async function influxQuery(
  endpoint: InfluxEndpoint,
  query: string,
  signal: AbortSignal,
  database = endpoint.database,
): Promise<InfluxStatementResult[]> {
  const url = new URL("query", endpoint.base);
  url.searchParams.set("q", query);
  if (database) url.searchParams.set("db", database);
  let response;
  try {
    response = await serverRequest(url, { headers: endpoint.headers, signal, tls: endpoint.tls });
  } catch (error) {
    if (error instanceof ServerUnreachableError)
      throw new Error(`Could not reach InfluxDB at ${endpoint.base.origin}: ${error.message}`, {
        cause: error,
      });
    throw error;
  }
  let answer: InfluxAnswer | null = null;
  try {
    answer = JSON.parse(response.text) as InfluxAnswer;
  } catch {
    // described below
  }
  const serverError = answer?.error ?? answer?.message;
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `InfluxDB at ${endpoint.base.origin} refused the credentials (HTTP ${response.status}${serverError ? `: ${serverError}` : ""}).`,
    );
  }
  if (serverError) throw new Error(`InfluxDB: ${serverError}`);
  if (response.status !== 200 || !answer || !Array.isArray(answer.results)) {
    const snippet = response.text.slice(0, 200).trim();
    throw new Error(
      `${url.origin}${url.pathname} did not answer as InfluxDB's /query (HTTP ${response.status}${snippet ? `: ${snippet}` : ""}).`,
    );
  }
  const failed = answer.results.find((result) => result.error);
  if (failed) {
    const which = answer.results.length > 1 ? ` (statement ${(failed.statement_id ?? 0) + 1})` : "";
    throw new Error(`InfluxDB: ${failed.error}${which}`);
  }
  return answer.results;
}

/** An InfluxQL identifier, double-quoted. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** InfluxQL's keywords: a name that is one of them must be quoted. */
const KEYWORDS = new Set(
  `ALL ALTER ANY AS ASC BEGIN BY CREATE CONTINUOUS DATABASE DATABASES DEFAULT DELETE DESC
  DESTINATIONS DIAGNOSTICS DISTINCT DROP DURATION END EVERY EXPLAIN FIELD FOR FROM GRANT GRANTS
  GROUP GROUPS IN INF INSERT INTO KEY KEYS KILL LIMIT MEASUREMENT MEASUREMENTS NAME OFFSET ON
  ORDER PASSWORD POLICIES POLICY PRIVILEGES QUERIES QUERY READ REPLICATION RESAMPLE RETENTION
  REVOKE SELECT SERIES SET SHARD SHARDS SHOW SLIMIT SOFFSET STATS SUBSCRIPTION SUBSCRIPTIONS TAG
  TO USER USERS VALUES WHERE WITH WRITE`.split(/\s+/),
);

/** An InfluxQL name as a query writes it: bare when it may be, else double-quoted. */
export function influxName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name.toUpperCase())
    ? name
    : quoteIdentifier(name);
}
