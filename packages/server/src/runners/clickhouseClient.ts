// A ClickHouse data source's options (Redash's names) → the official HTTP client, and the
// server's errors in its own words. Credentials travel in the Authorization header only.
import { randomUUID } from "node:crypto";
import {
  ClickHouseLogLevel,
  createClient,
  type ClickHouseClient,
  type ClickHouseSettings,
} from "@clickhouse/client";
import { TlsHandshakeAgent } from "../outbound/tlsHandshakeAgent";
import type { DataSourceOptions } from "./types";

export const DEFAULT_URL = "http://127.0.0.1:8123";
/** The request timeout when neither the run nor the data source has a time limit. */
const NO_LIMIT_MS = 24 * 60 * 60 * 1000;

function text(options: DataSourceOptions, key: string): string | undefined {
  const value = options[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export interface Endpoint {
  /** Scheme, host, port and path: never credentials or query parameters. */
  url: URL;
  username: string;
  password: string;
  database: string;
}

/**
 * The server address without credentials: Redash's `url` may carry `user:password@` or
 * `?user=…&password=…`; they are used only when the options do not name a user and password,
 * and never sent in the URL.
 */
export function endpointOf(options: DataSourceOptions): Endpoint {
  const raw = text(options, "url") ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`The ClickHouse URL is not a valid URL (expected e.g. ${DEFAULT_URL}).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error("The ClickHouse URL must start with http:// or https://.");
  const urlUser = decodeURIComponent(url.username) || url.searchParams.get("user") || undefined;
  const urlPassword =
    decodeURIComponent(url.password) || url.searchParams.get("password") || undefined;
  const clean = new URL(`${url.protocol}//${url.host}${url.pathname}`);
  return {
    url: clean,
    username: text(options, "user") ?? urlUser ?? "default",
    password: text(options, "password") ?? urlPassword ?? "",
    database: text(options, "dbname") ?? url.searchParams.get("database") ?? "default",
  };
}

/**
 * How long one HTTP request may wait for ClickHouse's answer: a little more than the run's own
 * time limit (Sightline stops the query first), else the `timeout` option (Redash's request
 * timeout), else a day (no limit was asked for).
 */
function requestTimeoutMs(options: DataSourceOptions, queryTimeoutMs: number | null): number {
  if (queryTimeoutMs && queryTimeoutMs > 0) return queryTimeoutMs + 5000;
  const seconds = Number(options.timeout);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : NO_LIMIT_MS;
}

export function openClient(
  options: DataSourceOptions,
  queryTimeoutMs: number | null,
): ClickHouseClient {
  const endpoint = endpointOf(options);
  const secure = endpoint.url.protocol === "https:";
  return createClient({
    url: endpoint.url,
    username: endpoint.username,
    password: endpoint.password,
    database: endpoint.database,
    application: "Sightline",
    request_timeout: requestTimeoutMs(options, queryTimeoutMs),
    keep_alive: { enabled: false },
    compression: { response: false, request: false },
    log: { level: ClickHouseLogLevel.OFF },
    ...(secure
      ? {
          http_agent: new TlsHandshakeAgent({ rejectUnauthorized: options.verify !== false }),
          set_basic_auth_header: true,
        }
      : {}),
  });
}

/** The settings a run asks for: read-only (unless turned off) and the server-side time limit. */
export function runSettings(
  options: DataSourceOptions,
  timeoutMs: number | null,
): ClickHouseSettings {
  const settings: ClickHouseSettings = {};
  // readonly=2 forbids writes but still lets this request set its own limits.
  if (options.read_only !== false) settings.readonly = "2";
  // A backstop: Sightline stops the query at the limit itself (KILL QUERY), the server a bit later.
  if (timeoutMs && timeoutMs > 0) settings.max_execution_time = Math.ceil(timeoutMs / 1000) + 2;
  // Times in UTC with their zone (servers before 20.x do not know it; see withSettingsRetry).
  settings.date_time_output_format = "iso";
  return settings;
}

/**
 * Runs `attempt` with `settings`, dropping what the server refuses: a setting it does not know
 * (older servers), or every setting when the account is read-only already (readonly=1 forbids
 * changing any setting; Sightline's own time limit still applies).
 */
export async function withSettingsRetry<T>(
  settings: ClickHouseSettings,
  attempt: (settings: ClickHouseSettings) => Promise<T>,
): Promise<T> {
  let current = { ...settings };
  for (let tries = 0; ; tries++) {
    try {
      return await attempt(current);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const unknown = /Unknown setting (\w+)/.exec(message)?.[1];
      if (tries < 4 && unknown && unknown in current) {
        const rest = { ...current };
        delete (rest as Record<string, unknown>)[unknown];
        current = rest;
        continue;
      }
      if (
        tries < 4 &&
        /Cannot (modify|override) .{0,80}setting.{0,80} in readonly mode/i.test(message)
      ) {
        if (Object.keys(current).length > 0) {
          current = {};
          continue;
        }
      }
      throw error;
    }
  }
}

export function newQueryId(): string {
  return `sightline-${randomUUID()}`;
}

/** A string as a ClickHouse quoted literal. */
export function quoteString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * The server's (or the network's) message without the client's wrapping: old servers write
 * `Code: 193, e.displayText() = DB::Exception: Wrong password…, e.what() = DB::Exception`.
 */
export function clickhouseMessage(error: unknown, endpoint?: URL): string {
  const e = error as { message?: string; code?: string; type?: string };
  let message = (e?.message ?? String(error)).trim();
  const old =
    /Code: (\d+), e\.displayText\(\) = DB::Exception: (.*?)(, e\.what\(\) = DB::Exception)?\s*$/s.exec(
      message,
    );
  if (old) message = `${old[2].trim()} (code ${old[1]})`;
  else if (e?.type && e.code && /^\d+$/.test(e.code))
    message = `${message.replace(/\s*\.?\s*$/, "")}. (${e.type}, code ${e.code})`;
  if (endpoint && /^Timeout error\.?$/.test(message))
    return `ClickHouse at ${endpoint.origin} did not answer within the data source's Query Timeout.`;
  const network = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|ECONNRESET/;
  if (endpoint && network.test(message))
    return `Could not reach ClickHouse at ${endpoint.origin}: ${message}`;
  if (endpoint && /certificate|EPROTO|SSL routines|TLS/i.test(message))
    return `TLS connection to ClickHouse at ${endpoint.origin} failed: ${message}`;
  return message;
}
