// Redis as a data source: one read-only command per query (redisCommands.ts), its answer as a
// table; SCAN is paged up to the data source's cap. A connection per run, closed at the end, on
// cancel and on timeout.
import { Redis, type RedisOptions } from "ioredis";
import { watchQuery } from "./queryWatch";
import { commandTable, parseRedisCommand, type RedisCommand } from "./redisCommands";
import { assertNotQueueRedis } from "./redisQueueGuard";
import { seconds, textOption } from "./serverHttp";
import type { Cell, DataSourceOptions, QueryRun, RunContext, Runner, SchemaTable } from "./types";
import { buildColumns } from "./values";

const BATCH_SIZE = 5000;
const DEFAULT_SCAN_CAP = 10_000;
/** Keys sampled for the schema browser. */
const SCHEMA_KEYS = 1000;
const CONNECT_TIMEOUT_MS = 10_000;

function intOption(options: DataSourceOptions, key: string, fallback: number): number {
  const value = Number(options[key] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`"${key}" must be a whole number.`);
  return value;
}

function connectionOptions(options: DataSourceOptions): RedisOptions & { host: string } {
  const port = intOption(options, "port", 6379);
  if (port < 1 || port > 65535) throw new Error('"port" must be between 1 and 65535.');
  intOption(options, "db", 0); // selected once connected (see connect)
  return {
    host: textOption(options, "host") ?? "127.0.0.1",
    port,
    username: textOption(options, "user"),
    password: textOption(options, "password"),
    ...(options.ssl === true ? { tls: { rejectUnauthorized: options.verify_ssl !== false } } : {}),
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: false,
    enableOfflineQueue: true,
  };
}

function errorMessage(error: unknown, where: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|connect/i.test(message))
    return new Error(`Could not reach Redis at ${where}: ${message}`, { cause: error });
  return new Error(`Redis: ${message}`, { cause: error });
}

/** Checks the options, and that they do not lead to Sightline's own queue database. */
async function checkTarget(options: DataSourceOptions, ctx: RunContext): Promise<void> {
  const settings = connectionOptions(options);
  await assertNotQueueRedis(
    { host: settings.host, port: settings.port ?? 6379, db: intOption(options, "db", 0) },
    ctx.queueRedisUrl,
  );
}

/** Connects (auth and SELECT included), or throws what failed in Redis's words. */
async function connect(options: DataSourceOptions, signal: AbortSignal): Promise<Redis> {
  const settings = connectionOptions(options);
  const client = new Redis(settings);
  // The reason a connection closed (a refused AUTH or SELECT) comes as an event.
  let lastError: unknown = null;
  client.on("error", (error: unknown) => (lastError ??= error));
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  try {
    await Promise.race([client.connect(), aborted]);
    // SELECT is sent here, not by ioredis, whose failed SELECT leaves the connection on db 0.
    const db = intOption(options, "db", 0);
    if (db !== 0) await Promise.race([client.select(db), aborted]);
    return client;
  } catch (error) {
    client.disconnect();
    if (signal.aborted) throw signal.reason as Error;
    const closed = error instanceof Error && /Connection is closed/.test(error.message);
    throw errorMessage(
      closed && lastError ? lastError : error,
      `${settings.host}:${settings.port}`,
    );
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Runs a command, rejecting at once when `signal` aborts (the connection is closed then). */
function call(client: Redis, signal: AbortSignal, name: string, args: string[]): Promise<unknown> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      client.disconnect();
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    client.call(name, ...args).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        const where = `${client.options.host}:${client.options.port}`;
        reject(signal.aborted ? (signal.reason as Error) : errorMessage(error, where));
      },
    );
  });
}

/** SCAN's arguments after the cursor, with a COUNT hint when none is given. */
function scanArgs(args: string[]): { cursor: string; rest: string[] } {
  const [cursor = "0", ...rest] = args;
  if (!/^\d+$/.test(cursor)) throw new Error("SCAN's first argument is the cursor (0 to start).");
  const hasCount = rest.some((arg) => arg.toUpperCase() === "COUNT");
  return { cursor, rest: hasCount ? rest : [...rest, "COUNT", "1000"] };
}

async function* scanPages(
  client: Redis,
  signal: AbortSignal,
  args: string[],
  cap: number,
): AsyncGenerator<string[]> {
  let { cursor } = scanArgs(args);
  const { rest } = scanArgs(args);
  let total = 0;
  do {
    const [next, keys] = (await call(client, signal, "SCAN", [cursor, ...rest])) as [
      string,
      string[],
    ];
    cursor = next;
    const kept = keys.slice(0, cap - total);
    total += kept.length;
    if (kept.length > 0) yield kept;
  } while (cursor !== "0" && total < cap);
}

async function runQuery(
  options: DataSourceOptions,
  text: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const command: RedisCommand = parseRedisCommand(text);
  const cap = intOption(options, "scan_cap", DEFAULT_SCAN_CAP) || DEFAULT_SCAN_CAP;
  if (command.name === "SCAN") scanArgs(command.args);
  await checkTarget(options, ctx);
  const watch = watchQuery(ctx);
  let client: Redis;
  try {
    client = await connect(options, watch.signal);
  } catch (error) {
    watch.dispose();
    throw watch.explain(error);
  }
  const done = () => {
    watch.dispose();
    client.disconnect();
  };

  if (command.name === "SCAN") {
    const pages = scanPages(client, watch.signal, command.args, cap);
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        let batch: Cell[][] = [];
        for await (const keys of pages) {
          for (const key of keys) batch.push([key]);
          if (batch.length >= BATCH_SIZE) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      } catch (error) {
        throw watch.explain(error);
      } finally {
        done();
      }
    }
    return { columns: buildColumns([{ name: "key", type: "string" }]), batches: batches() };
  }

  let table;
  try {
    table = commandTable(command, await call(client, watch.signal, command.name, command.args));
  } catch (error) {
    throw watch.explain(error);
  } finally {
    done();
  }
  const rows = table.rows;
  async function* batches() {
    for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE);
  }
  return { columns: buildColumns(table.columns), batches: batches() };
}

/** The columns each key type's reading command answers with. */
const TYPE_COLUMNS: Record<string, { name: string; type: string }[]> = {
  string: [{ name: "value", type: "string (GET)" }],
  hash: [
    { name: "field", type: "hash (HGETALL)" },
    { name: "value", type: "string" },
  ],
  list: [
    { name: "index", type: "list (LRANGE)" },
    { name: "value", type: "string" },
  ],
  set: [{ name: "member", type: "set (SMEMBERS)" }],
  zset: [
    { name: "member", type: "zset (ZRANGE … WITHSCORES)" },
    { name: "score", type: "float" },
  ],
  stream: [
    { name: "id", type: "stream (XRANGE)" },
    { name: "time", type: "datetime" },
  ],
};

/** Up to SCHEMA_KEYS keys of the database (one SCAN pass), each with its type's columns. */
async function getSchema(options: DataSourceOptions, ctx: RunContext): Promise<SchemaTable[]> {
  await checkTarget(options, ctx);
  const settings = connectionOptions(options);
  const where = `${settings.host}:${settings.port}`;
  const controller = new AbortController();
  const timeoutMs = ctx.timeoutMs;
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs
    ? setTimeout(
        () =>
          controller.abort(
            new Error(
              `Timed out after ${seconds(timeoutMs)} s while reading the keys of database ${intOption(options, "db", 0)} (SCAN, TYPE) from Redis at ${where}.`,
            ),
          ),
        timeoutMs,
      )
    : null;
  let client: Redis | null = null;
  try {
    client = await connect(options, controller.signal);
    const keys: string[] = [];
    for await (const page of scanPages(client, controller.signal, ["0"], SCHEMA_KEYS))
      keys.push(...page);
    const pipeline = client.pipeline();
    for (const key of keys) pipeline.type(key);
    const types = await Promise.race([
      pipeline.exec(),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
          once: true,
        }),
      ),
    ]);
    return keys
      .map((key, i) => ({
        name: key,
        columns: TYPE_COLUMNS[String(types?.[i]?.[1] ?? "")] ?? [
          { name: "value", type: String(types?.[i]?.[1] ?? "unknown") },
        ],
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    if (timer) clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    client?.disconnect();
  }
}

export const redisRunner: Runner = {
  type: "redis",
  name: "Redis",
  syntax: "text",
  supportsAutoLimit: false,
  annotateQuery: false,
  configurationSchema: {
    type: "object",
    properties: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "number", default: 6379 },
      db: { type: "number", title: "Database Number", default: 0 },
      user: { type: "string", title: "User (Redis 6 ACL; empty for the default user)" },
      password: { type: "string" },
      ssl: { type: "boolean", title: "Use TLS", default: false },
      verify_ssl: { type: "boolean", title: "Verify TLS certificate", default: true },
      scan_cap: {
        type: "number",
        title: "Most keys a SCAN query returns",
        default: DEFAULT_SCAN_CAP,
      },
    },
    order: ["host", "port", "db", "user", "password", "ssl"],
    secret: ["password"],
    extra_options: ["verify_ssl", "scan_cap"],
  },

  async checkOptions(options, ctx) {
    await checkTarget(options, ctx);
  },

  run: runQuery,

  async test(options, ctx) {
    await checkTarget(options, ctx);
    const watch = watchQuery(ctx);
    try {
      const client = await connect(options, watch.signal);
      try {
        await call(client, watch.signal, "PING", []);
      } finally {
        client.disconnect();
      }
    } catch (error) {
      throw watch.explain(error);
    } finally {
      watch.dispose();
    }
  },

  getSchema,
};
