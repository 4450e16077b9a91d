// Prometheus over its HTTP API: instant and range queries (prometheusQuery.ts reads the three
// query forms), one column per label across every series, `value` as a number, `timestamp` in
// UTC. Basic or bearer auth, or none; credentials in headers only.
import { inBatches } from "./batches";
import { callParams, parsePromQuery } from "./prometheusQuery";
import { watchQuery } from "./queryWatch";
import {
  basicAuthorization,
  BodyTooLargeError,
  pemOption,
  serverRequest,
  ServerUnreachableError,
  textOption,
  withinCatalogTime,
  type ServerTls,
} from "./serverHttp";
import type {
  Cell,
  ColumnType,
  DataSourceOptions,
  QueryRun,
  RunContext,
  Runner,
  SchemaTable,
} from "./types";
import { buildColumns, dateCell } from "./values";

const DEFAULT_URL = "http://127.0.0.1:9090";
/** The most of /api/v1/series the schema reads for labels. */
const SERIES_MAX_BYTES = 64 * 1024 * 1024;

interface Endpoint {
  /** The API's base, ending in "/", without credentials. */
  base: URL;
  headers: Record<string, string>;
  tls: ServerTls;
}

function endpointOf(options: DataSourceOptions): Endpoint {
  const raw = textOption(options, "url") ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`The Prometheus API URL is not a valid URL (expected e.g. ${DEFAULT_URL}).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error("The Prometheus API URL must start with http:// or https://.");
  const urlUser = decodeURIComponent(url.username);
  const urlPassword = decodeURIComponent(url.password);
  const base = new URL(`${url.protocol}//${url.host}${url.pathname.replace(/\/*$/, "/")}`);
  const headers: Record<string, string> = { accept: "application/json" };
  const token = textOption(options, "token");
  const user = textOption(options, "username") ?? (urlUser || undefined);
  const password = textOption(options, "password") ?? urlPassword;
  if (token) headers.authorization = `Bearer ${token.trim()}`;
  else if (user) headers.authorization = basicAuthorization(user, password ?? "");
  return {
    base,
    headers,
    tls: {
      rejectUnauthorized:
        options.verify_ssl !== false || textOption(options, "ca_cert_File") !== undefined,
      ca: pemOption(options, "ca_cert_File"),
      cert: pemOption(options, "cert_File"),
      key: pemOption(options, "cert_key_File"),
    },
  };
}

interface PromAnswer {
  status?: string;
  data?: unknown;
  errorType?: string;
  error?: string;
}

/** Calls the API; errors say what failed in Prometheus's (or the network's) own words. */
async function callApi(
  endpoint: Endpoint,
  path: string,
  form: URLSearchParams | null,
  signal: AbortSignal,
  maxBytes?: number,
): Promise<unknown> {
  const url = new URL(path, endpoint.base);
  let response;
  try {
    response = await serverRequest(url, {
      headers: endpoint.headers,
      ...(form ? { form } : {}),
      signal,
      tls: endpoint.tls,
      maxBytes,
    });
  } catch (error) {
    if (error instanceof ServerUnreachableError)
      throw new Error(`Could not reach Prometheus at ${endpoint.base.origin}: ${error.message}`, {
        cause: error,
      });
    throw error;
  }
  let answer: PromAnswer | null = null;
  try {
    answer = JSON.parse(response.text) as PromAnswer;
  } catch {
    // not JSON: described below
  }
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `Prometheus at ${endpoint.base.origin} refused the credentials (HTTP ${response.status}${answer?.error ? `: ${answer.error}` : ""}).`,
    );
  }
  if (answer?.status === "error") {
    throw new Error(`Prometheus: ${answer.error ?? "error"} (${answer.errorType ?? "error"})`);
  }
  if (response.status !== 200 || answer?.status !== "success") {
    const snippet = response.text.slice(0, 200).trim();
    throw new Error(
      `${url.origin}${url.pathname} did not answer as a Prometheus API (HTTP ${response.status}${snippet ? `: ${snippet}` : ""}).`,
    );
  }
  return answer.data;
}

type Sample = [number, string];
interface Series {
  metric: Record<string, string>;
  value?: Sample;
  values?: Sample[];
}

/** A sample's value: a number, or null for NaN and the infinities (JSON has no such numbers). */
function sampleValue(text: string): number | null {
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function timestampCell(seconds: number): Cell {
  return dateCell(new Date(Math.round(seconds * 1000)), "datetime");
}

/** The API's `data` → columns (timestamp, value, then every label seen in any series) and rows. */
export function promResult(data: unknown): {
  columns: { name: string; type: ColumnType }[];
  rows(): Generator<Cell[]>;
} {
  const { resultType, result } = (data ?? {}) as { resultType?: string; result?: unknown };
  if (resultType === "scalar" || resultType === "string") {
    const [time, value] = (result ?? [0, null]) as [number, string | null];
    const isScalar = resultType === "scalar";
    return {
      columns: [
        { name: "timestamp", type: "datetime" },
        { name: "value", type: isScalar ? "float" : "string" },
      ],
      *rows() {
        yield [timestampCell(time), isScalar && value !== null ? sampleValue(value) : value];
      },
    };
  }
  const series = (Array.isArray(result) ? result : []) as Series[];
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const one of series) {
    for (const label of Object.keys(one.metric ?? {})) {
      if (!seen.has(label)) {
        seen.add(label);
        labels.push(label);
      }
    }
  }
  // A label called "timestamp" or "value" keeps its own column (buildColumns numbers it).
  return {
    columns: [
      { name: "timestamp", type: "datetime" },
      { name: "value", type: "float" },
      ...labels.map((name) => ({ name, type: "string" as const })),
    ],
    *rows() {
      for (const one of series) {
        const metric = one.metric ?? {};
        const labelCells = labels.map((label) => metric[label] ?? null);
        const samples = one.values ?? (one.value ? [one.value] : []);
        for (const [time, value] of samples) {
          yield [timestampCell(time), sampleValue(value), ...labelCells];
        }
      }
    },
  };
}

async function runQuery(
  options: DataSourceOptions,
  text: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const call = parsePromQuery(text);
  const endpoint = endpointOf(options);
  const watch = watchQuery(ctx);
  let data: unknown;
  try {
    const { path, form } = callParams(call);
    // Prometheus stops evaluating at its own `timeout` too (and when the connection closes).
    if (ctx.timeoutMs && ctx.timeoutMs > 0)
      form.set("timeout", `${Math.ceil(ctx.timeoutMs / 1000) + 1}s`);
    data = await callApi(endpoint, path, form, watch.signal);
  } catch (error) {
    throw watch.explain(error);
  } finally {
    watch.dispose();
  }
  const result = promResult(data);
  return { columns: buildColumns(result.columns), batches: inBatches(result.rows()) };
}

/** A catalog call within the schema's time, naming what timed out. */
async function catalogCall(
  options: DataSourceOptions,
  path: string,
  form: URLSearchParams | null,
  ctx: RunContext,
  what: string,
  maxBytes?: number,
): Promise<unknown> {
  const endpoint = endpointOf(options);
  return withinCatalogTime(ctx, what, `Prometheus at ${endpoint.base.origin}`, (signal) =>
    callApi(endpoint, path, form, signal, maxBytes),
  );
}

/**
 * Metric names (label/__name__/values), then every series' labels in one /api/v1/series call
 * (labels seen in any series of a metric); when the series list is over SERIES_MAX_BYTES the
 * metrics are listed without their labels.
 */
async function getSchema(options: DataSourceOptions, ctx: RunContext): Promise<SchemaTable[]> {
  const started = Date.now();
  const left = () => (ctx.timeoutMs ? Math.max(ctx.timeoutMs - (Date.now() - started), 1) : null);
  const names = (await catalogCall(
    options,
    "api/v1/label/__name__/values",
    null,
    { ...ctx, timeoutMs: left() },
    "the metric names (/api/v1/label/__name__/values)",
  )) as string[];
  const labels = new Map<string, Set<string>>(names.map((name) => [name, new Set<string>()]));
  let series: Record<string, string>[] = [];
  try {
    series = (await catalogCall(
      options,
      "api/v1/series",
      new URLSearchParams({ "match[]": '{__name__=~".+"}' }),
      { ...ctx, timeoutMs: left() },
      "the labels of every series (/api/v1/series)",
      SERIES_MAX_BYTES,
    )) as Record<string, string>[];
  } catch (error) {
    // Too many series to list: the metric names alone.
    if (!(error instanceof BodyTooLargeError)) throw error;
  }
  for (const one of series) {
    const set = labels.get(one.__name__);
    if (!set) continue;
    for (const label of Object.keys(one)) if (label !== "__name__") set.add(label);
  }
  return [...labels]
    .map(([name, set]) => ({
      name,
      columns: [...set].sort().map((label) => ({ name: label, type: "label" })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const prometheusRunner: Runner = {
  type: "prometheus",
  name: "Prometheus",
  syntax: "text",
  supportsAutoLimit: false,
  annotateQuery: false,
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Prometheus API URL", default: DEFAULT_URL },
      username: { type: "string", title: "Username (HTTP basic auth)" },
      password: { type: "string", title: "Password (HTTP basic auth)" },
      token: { type: "string", title: "Bearer Token (instead of a username and password)" },
      verify_ssl: {
        type: "boolean",
        title: "Verify SSL (Ignored, if SSL Root Certificate is given)",
        default: true,
      },
      cert_File: { type: "string", title: "SSL Client Certificate" },
      cert_key_File: { type: "string", title: "SSL Client Key" },
      ca_cert_File: { type: "string", title: "SSL Root Certificate" },
    },
    required: ["url"],
    order: ["url", "username", "password", "token"],
    secret: ["password", "token", "cert_File", "cert_key_File", "ca_cert_File"],
    extra_options: ["verify_ssl", "cert_File", "cert_key_File", "ca_cert_File"],
  },

  async checkOptions(options) {
    endpointOf(options);
  },

  run: runQuery,

  async test(options, ctx) {
    await catalogCall(
      options,
      "api/v1/query",
      new URLSearchParams({ query: "1" }),
      ctx,
      "the answer to the query 1",
    );
  },

  getSchema,
};
