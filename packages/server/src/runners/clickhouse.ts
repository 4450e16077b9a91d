// ClickHouse over HTTP(S) with the official client: results streamed as TabSeparated text (every
// type readable, 64-bit values exact), cancellation by KILL QUERY on the run's query id, the
// data source's timeout as max_execution_time, read-only by the `readonly` setting.
import type { ClickHouseClient } from "@clickhouse/client";
import { BatchChannel } from "./batchChannel";
import {
  DEFAULT_URL,
  clickhouseMessage,
  endpointOf,
  newQueryId,
  openClient,
  quoteString,
  runSettings,
  withSettingsRetry,
} from "./clickhouseClient";
import { JsonRowWriter, lineTexts } from "./clickhouseRows";
import { streamedException, streamedFailure } from "./clickhouseStreamError";
import { clickhouseColumn, unescapeText, type ClickHouseColumn } from "./clickhouseValues";
import { refuseOtherServers } from "./clickhouseReach";
import { watchQuery } from "./queryWatch";
import { schemaTables } from "./schemaTables";
import { seconds } from "./serverHttp";
import {
  JsonRows,
  type DataSourceOptions,
  type QueryRun,
  type RunContext,
  type Runner,
  type SchemaColumn,
  type SchemaTable,
} from "./types";
import { buildColumns } from "./values";

const BATCH_SIZE = 5000;
const FORMAT = "TabSeparatedWithNamesAndTypes";
const SYSTEM_DATABASES = ["system", "information_schema", "INFORMATION_SCHEMA"];

/** Texts of complete lines of the answer, each ended by its newline. */
type Texts = AsyncIterator<string>;

/** Reads until the first `count` lines are there; returns them and the text after them. */
async function firstLines(texts: Texts, count: number): Promise<{ lines: string[]; rest: string }> {
  let text = "";
  let at = 0;
  const lines: string[] = [];
  while (lines.length < count) {
    const newline = text.indexOf("\n", at);
    if (newline !== -1) {
      lines.push(text.slice(at, newline));
      at = newline + 1;
      continue;
    }
    const next = await texts.next();
    if (next.done) break;
    text += next.value;
  }
  return { lines, rest: text.slice(at) };
}

/** The query as the client's query() sends it: without trailing semicolons, then FORMAT. */
function withFormat(query: string): string {
  return `${query.trim().replace(/;+$/, "")} \nFORMAT ${FORMAT}`;
}

/** Statements that return no rows: sent without a FORMAT clause, which they cannot take. */
const NO_ROWS =
  /^(INSERT|CREATE|ALTER|DROP|TRUNCATE|RENAME|OPTIMIZE|SYSTEM|KILL|SET|USE|GRANT|REVOKE|ATTACH|DETACH|DELETE|UPDATE)\b/i;

/** The statement without its leading comments (Sightline's annotation, the user's own). */
export function withoutLeadingComments(query: string): string {
  let text = query.trimStart();
  for (;;) {
    if (text.startsWith("--")) {
      const end = text.indexOf("\n");
      text = end === -1 ? "" : text.slice(end + 1).trimStart();
    } else if (text.startsWith("/*")) {
      const end = text.indexOf("*/");
      text = end === -1 ? "" : text.slice(end + 2).trimStart();
    } else return text;
  }
}

/** Stops the query in the server; the request's own abort only closes the connection. */
/**
 * How long a KILL QUERY may wait for its answer: a server answers one at once (ASYNC), so one that
 * does not is hung, and the request is given up rather than held open for the client's limit.
 */
const KILL_WAIT_MS = 2000;

async function killQuery(client: ClickHouseClient, queryId: string): Promise<void> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), KILL_WAIT_MS);
  try {
    await client.command({
      query: `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`,
      abort_signal: limit.signal,
    });
  } catch {
    // The query may be over already, or the account may not kill; the connection is closed anyway.
  } finally {
    clearTimeout(timer);
  }
}

async function runQuery(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const endpoint = endpointOf(options);
  const watch = watchQuery(ctx);
  const client = openClient(options, ctx.timeoutMs);
  const queryId = newQueryId();
  const request = new AbortController();
  let closed = false;
  let killed: Promise<void> | null = null;
  const stop = () => {
    killed ??= killQuery(client, queryId);
    request.abort();
  };
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    void (killed ?? Promise.resolve()).then(() => client.close().catch(() => undefined));
  };
  watch.signal.addEventListener("abort", stop, { once: true });

  let texts: Texts;
  let pending: string;
  let columns: ClickHouseColumn[];
  let names: string[];
  try {
    if (watch.signal.aborted) throw watch.signal.reason;
    if (NO_ROWS.test(withoutLeadingComments(query))) {
      await withSettingsRetry(runSettings(options, ctx.timeoutMs), (settings) =>
        client.command({
          query,
          query_id: queryId,
          clickhouse_settings: settings,
          abort_signal: request.signal,
        }),
      );
      throw new Error("Query completed but it returned no data.");
    }
    // exec: the answer's bytes, decoded a piece at a time (the client's query() makes a string
    // and an object per line, a third of the time of a big result).
    const result = await withSettingsRetry(runSettings(options, ctx.timeoutMs), (settings) =>
      client.exec({
        query: withFormat(query),
        query_id: queryId,
        clickhouse_settings: settings,
        abort_signal: request.signal,
      }),
    );
    texts = lineTexts(result.stream as AsyncIterable<Buffer>);
    const first = await firstLines(texts, 2);
    if (first.lines.length > 0) {
      const failure = streamedException(first.lines[0]);
      if (failure) throw failure;
    }
    if (first.lines.length < 2) throw new Error("Query completed but it returned no data.");
    names = first.lines[0].split("\t").map(unescapeText);
    columns = first.lines[1].split("\t").map((t) => clickhouseColumn(unescapeText(t)));
    pending = first.rest;
  } catch (error) {
    const explained = watch.explain(
      error instanceof Error && error.message.startsWith("Query completed")
        ? error
        : new Error(clickhouseMessage(error, endpoint.url)),
    );
    stop();
    close();
    throw explained;
  }

  const channel = new BatchChannel(() => {
    stop();
    close();
  });
  watch.signal.addEventListener("abort", () => channel.fail(watch.signal.reason as Error), {
    once: true,
  });
  const resultColumns = buildColumns(names.map((name, i) => ({ name, type: columns[i].type })));
  const writer = new JsonRowWriter(
    resultColumns.map((column) => column.name),
    columns,
    streamedFailure,
  );
  void (async () => {
    try {
      let text = pending;
      for (;;) {
        writer.addText(text);
        if (writer.length >= BATCH_SIZE) {
          if (!(await channel.push(new JsonRows(writer.take())))) return;
        }
        let next: IteratorResult<string>;
        try {
          next = await texts.next();
        } catch (error) {
          // The connection broke: after an exception ClickHouse began, that is what is told.
          if (!watch.signal.aborted) writer.end();
          throw error;
        }
        if (next.done) break;
        text = next.value;
      }
      if (watch.signal.aborted) throw watch.signal.reason;
      writer.end();
      if (writer.length > 0 && !(await channel.push(new JsonRows(writer.take())))) return;
      channel.end();
    } catch (error) {
      channel.fail(watch.explain(new Error(clickhouseMessage(error, endpoint.url))));
      stop();
    } finally {
      close();
    }
  })();

  return {
    columns: resultColumns,
    batches: channel,
  };
}

/**
 * Reads a catalog query's rows as text. `what` names what was being read, for the message when
 * the time runs out (the server's own max_execution_time stops it there too); the message names
 * `limitMs`, the limit the user set, when this read had only what was left of it.
 */
async function catalogRows(
  options: DataSourceOptions,
  sql: string,
  ctx: RunContext,
  what: string,
  timeoutMs: number | null = ctx.timeoutMs,
  limitMs: number | null = timeoutMs,
): Promise<string[][]> {
  const endpoint = endpointOf(options);
  const client = openClient(options, timeoutMs);
  const queryId = newQueryId();
  const request = new AbortController();
  const onAbort = () => request.abort();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          void killQuery(client, queryId);
          request.abort();
        }, timeoutMs)
      : null;
  try {
    const result = await withSettingsRetry(runSettings(options, timeoutMs), (settings) =>
      client.query({
        query: sql,
        format: "TabSeparated",
        query_id: queryId,
        clickhouse_settings: settings,
        abort_signal: request.signal,
      }),
    );
    const body = await result.text();
    return body === ""
      ? []
      : body
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => line.split("\t").map(unescapeText));
  } catch (error) {
    if (timedOut) {
      throw new Error(
        `Timed out after ${seconds(limitMs ?? timeoutMs ?? 0)} s while reading ${what} from ClickHouse at ${endpoint.url.origin}.`,
        { cause: error },
      );
    }
    throw new Error(clickhouseMessage(error, endpoint.url), { cause: error });
  } finally {
    if (timer) clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    await client.close().catch(() => undefined);
  }
}

const USER_DATABASES = `NOT IN (${SYSTEM_DATABASES.map(quoteString).join(", ")})`;

/** `timeoutMs`: what is left of the limit the user set (`ctx.timeoutMs`), when less. */
async function listDatabases(
  options: DataSourceOptions,
  ctx: RunContext,
  timeoutMs: number | null = ctx.timeoutMs,
): Promise<string[]> {
  const rows = await catalogRows(
    options,
    `SELECT name FROM system.databases WHERE name ${USER_DATABASES} ORDER BY name`,
    ctx,
    "the list of databases (system.databases)",
    timeoutMs,
    ctx.timeoutMs,
  );
  return rows.map(([name]) => name);
}

/**
 * Every table's columns, one system.columns query per database so a big catalog is read in
 * pieces, each within what is left of the schema's time.
 */
async function getSchema(options: DataSourceOptions, ctx: RunContext): Promise<SchemaTable[]> {
  const budget = ctx.timeoutMs && ctx.timeoutMs > 0 ? ctx.timeoutMs - 1000 : null;
  const deadline = budget ? Date.now() + budget : null;
  const remaining = () => (deadline ? Math.max(deadline - Date.now(), 1) : null);
  const databases = await listDatabases(options, ctx, remaining());
  const columns: [string, unknown, unknown][] = [];
  for (const database of databases) {
    const rows = await catalogRows(
      options,
      `SELECT table, name, type FROM system.columns WHERE database = ${quoteString(database)}`,
      ctx,
      `the columns of database "${database}" (system.columns)`,
      remaining(),
      ctx.timeoutMs,
    );
    for (const [table, name, type] of rows) columns.push([`${database}.${table}`, name, type]);
  }
  return schemaTables(columns);
}

export const clickhouseRunner: Runner = {
  type: "clickhouse",
  name: "ClickHouse",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", default: DEFAULT_URL, title: "URL" },
      user: { type: "string", default: "default" },
      password: { type: "string" },
      dbname: { type: "string", title: "Database Name" },
      // Redash's "Request Timeout"; in Sightline every type's `timeout` is the query time limit.
      timeout: { type: "number", title: "Query Timeout (seconds)", default: 30 },
      verify: { type: "boolean", title: "Verify SSL certificate", default: true },
      read_only: {
        type: "boolean",
        title: "Read only (the readonly setting: no writes, whatever the account may do)",
        default: true,
      },
    },
    order: ["url", "user", "password", "dbname", "read_only"],
    required: ["dbname"],
    secret: ["password"],
    extra_options: ["timeout", "verify"],
  },

  async checkOptions(options) {
    endpointOf(options);
  },

  async run(options, query, ctx) {
    refuseOtherServers(query);
    return runQuery(options, query, ctx);
  },

  async test(options, ctx) {
    await catalogRows(options, "SELECT 1", ctx, "SELECT 1");
  },

  getSchema,
  listDatabases,

  async listTables(options, database, ctx) {
    const rows = await catalogRows(
      options,
      `SELECT name FROM system.tables WHERE database = ${quoteString(database)} ORDER BY name`,
      ctx,
      `the tables of database "${database}" (system.tables)`,
    );
    return rows.map(([name]) => name);
  },

  async listColumns(options, database, table, ctx): Promise<SchemaColumn[]> {
    const rows = await catalogRows(
      options,
      `SELECT name, type FROM system.columns
       WHERE database = ${quoteString(database)} AND table = ${quoteString(table)}`,
      ctx,
      `the columns of table "${database}.${table}" (system.columns)`,
    );
    return rows.map(([name, type]) => ({ name, type }));
  },
};
