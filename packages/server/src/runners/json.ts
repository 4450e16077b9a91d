import { parse as parseYaml } from "yaml";
import { watchQuery } from "./queryWatch";
import { absoluteUrls } from "./outboundUrls";
import {
  SchemaNotSupportedError,
  type Cell,
  type ColumnType,
  type DataSourceOptions,
  type QueryRun,
  type RunContext,
  type Runner,
} from "./types";
import { buildColumns, toCell } from "./values";

const BATCH_SIZE = 5000;
const MAX_PAGES = 1000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface JsonQuery {
  url: string;
  method: "GET" | "POST";
  params: Record<string, string>;
  headers: Record<string, string>;
  body?: { text: string; contentType: string };
  auth?: [string, string];
  path?: string;
  fields?: string[];
  pagination?: { type: "url"; path: string } | { type: "token"; fields: [string, string] };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown, name: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Error(`'${name}' needs to be an object.`);
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
}

/** Parses the query text (YAML or JSON), with the same rules and messages as Redash's json_ds. */
export function parseJsonQuery(text: string): JsonQuery {
  if (text.trim() === "") throw new Error("Query is empty.");
  let spec: unknown;
  try {
    spec = parseYaml(text);
  } catch (error) {
    throw new Error((error as Error).message, { cause: error });
  }
  if (!isObject(spec))
    throw new Error("Query should be a YAML object describing the URL to query.");
  if (!("url" in spec) || typeof spec.url !== "string")
    throw new Error("Query must include 'url' option.");
  const method = String(spec.method ?? "get").toLowerCase();
  if (method !== "get" && method !== "post")
    throw new Error("Only GET or POST methods are allowed.");
  if (spec.fields !== undefined && spec.fields !== null && !Array.isArray(spec.fields)) {
    throw new Error("'fields' needs to be a list.");
  }
  const query: JsonQuery = {
    url: spec.url,
    method: method === "post" ? "POST" : "GET",
    params: stringRecord(spec.params, "params"),
    headers: stringRecord(spec.headers, "headers"),
    path: typeof spec.path === "string" ? spec.path : undefined,
    fields: Array.isArray(spec.fields) && spec.fields.length ? spec.fields.map(String) : undefined,
  };
  if (Array.isArray(spec.auth))
    query.auth = [String(spec.auth[0] ?? ""), String(spec.auth[1] ?? "")];
  if (spec.json !== undefined) {
    query.body = { text: JSON.stringify(spec.json), contentType: "application/json" };
  } else if (isObject(spec.data)) {
    query.body = {
      text: new URLSearchParams(stringRecord(spec.data, "data")).toString(),
      contentType: "application/x-www-form-urlencoded",
    };
  } else if (typeof spec.data === "string") {
    query.body = { text: spec.data, contentType: "text/plain" };
  }
  if (spec.pagination !== undefined) query.pagination = parsePagination(spec.pagination);
  return query;
}

function parsePagination(value: Json): NonNullable<JsonQuery["pagination"]> {
  if (!isObject(value) || typeof value.type !== "string") {
    throw new Error("'pagination' should be an object with a `type` property");
  }
  if (value.type === "url") {
    const path = value.path ?? "_links.next.href";
    if (typeof path !== "string") throw new Error("'pagination.path' should be a string");
    return { type: "url", path };
  }
  if (value.type === "token") {
    const fields = value.fields ?? ["next_page_token", "page_token"];
    if (!Array.isArray(fields) || fields.length !== 2) {
      throw new Error("'pagination.fields' should be a list of 2 field names");
    }
    return { type: "token", fields: [String(fields[0]), String(fields[1])] };
  }
  throw new Error(`Unknown 'pagination.type' ${value.type}`);
}

/** Follows a dotted path; `fallback` (when given) replaces a missing part instead of an error. */
function applyPath(data: Json, path: string | undefined, fallback?: Json): Json {
  if (!path) return data;
  let current: Json = data;
  for (const part of path.split(".")) {
    if (isObject(current) && part in current) current = current[part];
    else if (Array.isArray(current) && /^\d+$/.test(part) && Number(part) < current.length)
      current = current[Number(part)];
    else if (fallback !== undefined) return fallback;
    else throw new Error(`Couldn't find path ${path} in response.`);
  }
  return current;
}

function jsonType(value: Json): ColumnType {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  return "string";
}

/** Redash's flattening: nested objects one level deep become "key.inner" columns. */
export function flattenRows(items: Json[], fields: string[] | undefined) {
  const columns = new Map<string, ColumnType>();
  const rows: Map<string, Json>[] = [];
  const add = (row: Map<string, Json>, name: string, value: Json) => {
    if (!columns.has(name)) columns.set(name, jsonType(value));
    row.set(name, value);
  };
  for (const item of items) {
    const row = new Map<string, Json>();
    if (isObject(item)) {
      for (const [key, value] of Object.entries(item)) {
        if (isObject(value)) {
          for (const [inner, innerValue] of Object.entries(value)) {
            const name = `${key}.${inner}`;
            if (fields && !fields.includes(key) && !fields.includes(name)) continue;
            add(row, name, innerValue);
          }
        } else if (!fields || fields.includes(key)) {
          add(row, key, value);
        }
      }
    }
    rows.push(row);
  }
  const names = fields ? fields.filter((f) => columns.has(f)) : [...columns.keys()];
  return {
    columns: buildColumns(names.map((name) => ({ name, type: columns.get(name) ?? null }))),
    rows: rows.map((row) => names.map((name): Cell => toCell(row.get(name) ?? null))),
  };
}

function basicAuth([user, password]: [string, string]): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/** Headers that carry credentials: they only go to the origin they were meant for. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/** The data source's Base URL: the one origin its stored credentials may be sent to. */
interface BaseUrl {
  url: URL;
  /** As configured (Redash quotes it in its refusal), without any user info. */
  shown: string;
}

function parseBaseUrl(options: DataSourceOptions): BaseUrl | undefined {
  const raw = typeof options.base_url === "string" ? options.base_url : "";
  if (!raw.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: a malformed base URL may still hold a password.
    throw new Error("The data source's Base URL is not a valid URL.");
  }
  if (!url.username && !url.password) return { url, shown: raw };
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  return { url, shown: shown.toString() };
}

function sameOrigin(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.host === b.host;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first address to fetch. With a Base URL only relative URLs are accepted (Redash's URL
 * runner rule and message); anything that parses on its own or resolves to another origin
 * ("//host", "/\host") is refused, so a query author cannot send the stored credentials away.
 */
function resolveQueryUrl(text: string, base: BaseUrl | undefined): URL {
  let url: URL;
  try {
    url = new URL(text, base?.url);
  } catch {
    throw new Error(`Invalid URL: ${text}`);
  }
  if (base && (isAbsoluteUrl(text) || !sameOrigin(url, base.url))) {
    throw new Error(`Accepting only relative URLs to '${base.shown}'`);
  }
  return url;
}

/**
 * Stored credentials (username/password) are sent only with a Base URL, and only to its origin:
 * without one the query author picks the host, so they are not sent at all. Credentials the query
 * itself gives (`auth`, credential headers) go to the query URL's origin only. A pagination link
 * to another origin is refused with a Base URL (the data source is pinned to it) and otherwise
 * followed without any credentials, as the outbound client does on a cross-origin redirect.
 */
async function fetchAll(
  options: DataSourceOptions,
  query: JsonQuery,
  ctx: RunContext,
  signal: AbortSignal,
) {
  const base = parseBaseUrl(options);
  let url = resolveQueryUrl(query.url, base);
  const credentialOrigin = base?.url ?? url;
  const params = { ...query.params };
  const headers: Record<string, string> = { accept: "application/json" };
  const credentials: Record<string, string> = {};
  for (const [key, value] of Object.entries(query.headers)) {
    const name = key.toLowerCase();
    if (CREDENTIAL_HEADERS.has(name)) credentials[name] = value;
    else headers[name] = value;
  }
  const stored: [string, string] | null =
    options.username || options.password
      ? [String(options.username ?? ""), String(options.password ?? "")]
      : null;
  const auth = query.auth ?? (base ? stored : null);
  const withheld = stored !== null && !query.auth && !base;
  if (auth) credentials.authorization = basicAuth(auth);
  if (query.body) headers["content-type"] = query.body.contentType;

  const items: Json[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const target = new URL(url);
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
    const response = await ctx.outbound.request(target.toString(), {
      method: query.method,
      headers: sameOrigin(target, credentialOrigin) ? { ...headers, ...credentials } : headers,
      body: query.body?.text,
      signal,
    });
    if (response.status !== 200) {
      const hint =
        withheld && (response.status === 401 || response.status === 403)
          ? " The data source's username and password are sent only to its Base URL, and none is set."
          : "";
      throw new Error(`Endpoint returned unexpected status code (${response.status}).${hint}`);
    }
    const data = response.json() as Json;
    if (data === null || data === "" || (Array.isArray(data) && data.length === 0)) break;
    const found = applyPath(data, query.path);
    if (Array.isArray(found)) items.push(...found);
    else if (found !== null) items.push(found);
    if (!query.pagination) break;
    if (query.pagination.type === "url") {
      const next = applyPath(data, query.pagination.path, "");
      if (typeof next !== "string" || !next) break;
      try {
        url = new URL(next, target);
      } catch {
        throw new Error(`Invalid pagination URL: ${next}`);
      }
      if (base && !sameOrigin(url, base.url)) {
        throw new Error(
          `Accepting only relative URLs to '${base.shown}' (the pagination link leads to ${url.origin}).`,
        );
      }
      for (const key of Object.keys(params)) delete params[key];
    } else {
      const [tokenField, paramName] = query.pagination.fields;
      const token = applyPath(data, tokenField, "");
      if (token === "" || token === null) break;
      if (String(token) === params[paramName]) {
        throw new Error(`${tokenField} did not change; possible misconfiguration`);
      }
      params[paramName] = String(token);
    }
  }
  return items;
}

async function runQuery(
  options: DataSourceOptions,
  text: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const query = parseJsonQuery(text);
  const watch = watchQuery(ctx);
  try {
    const items = await fetchAll(options, query, ctx, watch.signal);
    const { columns, rows } = flattenRows(items, query.fields);
    async function* batches() {
      for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE);
    }
    return { columns, batches: batches() };
  } catch (error) {
    throw watch.explain(error);
  } finally {
    watch.dispose();
  }
}

export const jsonRunner: Runner = {
  type: "json",
  name: "JSON",
  syntax: "yaml",
  supportsAutoLimit: false,
  configurationSchema: {
    type: "object",
    properties: {
      base_url: { type: "string", title: "Base URL" },
      // Stored credentials are never sent without a Base URL, nor to another origin.
      username: { type: "string", title: "HTTP Basic Auth Username (sent only to the Base URL)" },
      password: { type: "string", title: "HTTP Basic Auth Password (sent only to the Base URL)" },
    },
    secret: ["password"],
    order: ["base_url", "username", "password"],
  },

  run: runQuery,

  outboundUrls(query) {
    try {
      return absoluteUrls([parseJsonQuery(query).url]);
    } catch {
      return [];
    }
  },

  async test() {
    // Like Redash: there is no request that is safe to send on every JSON API.
  },

  async getSchema() {
    throw new SchemaNotSupportedError();
  },
};
