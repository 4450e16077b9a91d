import { BatchChannel } from "./batchChannel";
import { resolveDataFile } from "./dataFiles";
import { killProcess, releaseProcess, takeProcess } from "./sqliteProcesses";
import { watchQuery } from "./queryWatch";
import type { Cell, CellRun, ColumnType, DataSourceOptions, RunContext, Runner } from "./types";
import { buildColumns, toCell } from "./values";

const BATCH_SIZE = 5000;
/** Each job's messages carry its id, so late ones of an earlier job on the same process are ignored. */
let lastJobId = 0;

type ChildMessage = { id: number } & (
  | { type: "columns"; columns: { name: string; declaredType: string | null }[] }
  | { type: "batch"; rows: unknown[][] }
  | { type: "done" }
  | { type: "error"; message: string }
);

/** SQLite declared type → Redash column type, following SQLite's affinity rules. */
export function sqliteColumnType(declared: string | null): ColumnType {
  if (!declared) return null;
  const t = declared.toUpperCase();
  if (t.includes("BOOL")) return "boolean";
  if (t === "DATE") return "date";
  if (t.includes("DATETIME") || t.includes("TIMESTAMP")) return "datetime";
  if (t.includes("INT")) return "integer";
  if (t.includes("CHAR") || t.includes("CLOB") || t.includes("TEXT")) return "string";
  if (t.includes("REAL") || t.includes("FLOA") || t.includes("DOUB")) return "float";
  if (t.includes("NUMERIC") || t.includes("DECIMAL")) return "float";
  return "string";
}

/**
 * The type of a value without a declared type (an expression), from its SQLite storage class as
 * the child reads it with safe integers on: INTEGER arrives as a bigint, REAL as a number (even a
 * whole one, such as a sum of REAL amounts), TEXT as a string, BLOB as bytes.
 */
export function sqliteStorageClassType(value: unknown): ColumnType {
  switch (typeof value) {
    case "bigint":
      return "integer";
    case "number":
      return "float";
    case "string":
      return "string";
    default:
      return value instanceof Uint8Array ? "string" : null;
  }
}

/** ATTACH and VACUUM INTO would reach files outside the allowed folder. */
function assertNoFileStatements(query: string): void {
  const withoutComments = query.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ").trimStart();
  const keyword = withoutComments.match(/^[A-Za-z]+/)?.[0]?.toUpperCase();
  if (keyword === "ATTACH" || keyword === "DETACH" || keyword === "VACUUM") {
    throw new Error(`${keyword} is not allowed on SQLite data sources.`);
  }
}

function runInChild(
  job: { dbpath: string; query: string; readOnly: boolean },
  ctx: RunContext,
): Promise<CellRun> {
  const watch = watchQuery(ctx);
  const p = takeProcess();
  const { child } = p;
  const id = (lastJobId += 1);
  // Until the job ends, the process is this job's; afterwards it may serve another one.
  let owned = true;
  const letGo = (reuse: boolean) => {
    if (!owned) return;
    owned = false;
    child.off("message", onMessage);
    child.off("exit", onExit);
    if (reuse) releaseProcess(p);
    else killProcess(p);
  };
  let ended = false;
  // The consumer stopped reading early: the query is stopped with its process.
  const channel = new BatchChannel<Cell[][]>(() => {
    ended = true;
    watch.dispose();
    letGo(false);
  });
  let onMessage: (message: ChildMessage) => void = () => undefined;
  let onExit: () => void = () => undefined;

  return new Promise<CellRun>((resolve, reject) => {
    let declared: { name: string; declaredType: string | null }[] = [];
    let types: ColumnType[] = [];
    let started = false;

    const start = (firstRows: unknown[][]) => {
      started = true;
      types = declared.map((column, i) => {
        const fromDeclared = sqliteColumnType(column.declaredType);
        if (fromDeclared) return fromDeclared;
        const sample = firstRows.find((row) => row[i] !== null && row[i] !== undefined);
        return sample ? sqliteStorageClassType(sample[i]) : null;
      });
      const columns = buildColumns(declared.map((c, i) => ({ name: c.name, type: types[i] })));
      resolve({ columns, batches: channel });
    };
    const convert = (rows: unknown[][]): Cell[][] =>
      rows.map((row) => row.map((value, i) => toCell(value, types[i])));
    /** Ends the job with an error; the process is reused only when SQLite itself refused. */
    const fail = (error: Error, reuse = false) => {
      if (ended) return;
      ended = true;
      watch.dispose();
      letGo(reuse);
      if (started) channel.fail(error);
      else reject(error);
    };

    watch.signal.addEventListener("abort", () => fail(watch.signal.reason as Error), {
      once: true,
    });
    onMessage = (message) => {
      if (ended || message.id !== id) return;
      switch (message.type) {
        case "columns":
          declared = message.columns;
          break;
        case "batch":
          if (!started) start(message.rows);
          void channel.push(convert(message.rows)).then((more) => {
            if (more && owned) child.send({ id, type: "more" }, () => undefined);
          });
          break;
        case "done":
          if (!started) start([]);
          ended = true;
          watch.dispose();
          letGo(true);
          channel.end();
          break;
        case "error":
          fail(new Error(message.message), true);
          break;
      }
    };
    onExit = () => {
      const stderr = p.stderr;
      fail(watch.explain(new Error(`SQLite stopped unexpectedly. ${stderr}`.trim())));
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
    child.send({ id, ...job, batchSize: BATCH_SIZE }, (error) => {
      if (error) onExit();
    });
  });
}

async function collectRows(run: CellRun): Promise<Cell[][]> {
  const rows: Cell[][] = [];
  for await (const batch of run.batches) rows.push(...batch);
  return rows;
}

function openOptions(options: DataSourceOptions, ctx: RunContext) {
  return { dbpath: resolveDataFile(options.dbpath, ctx), readOnly: options.read_only === true };
}

export const sqliteRunner: Runner = {
  type: "sqlite",
  name: "SQLite",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: {
    type: "object",
    properties: {
      dbpath: { type: "string", title: "Database Path" },
      read_only: { type: "boolean", title: "Read only (enforced by the database)", default: false },
    },
    order: ["dbpath", "read_only"],
    required: ["dbpath"],
  },

  ownFiles: (options, ctx) => ({ files: [resolveDataFile(options.dbpath, ctx)], folders: [] }),

  async run(options, query, ctx) {
    const target = openOptions(options, ctx);
    assertNoFileStatements(query);
    return runInChild({ ...target, query }, ctx);
  },

  async test(options, ctx) {
    const run = await runInChild(
      { ...openOptions(options, ctx), query: "pragma quick_check" },
      ctx,
    );
    await collectRows(run);
  },

  async getSchema(options, ctx) {
    const run = await runInChild(
      {
        ...openOptions(options, ctx),
        query: `SELECT m.name AS table_name, p.name AS column_name, p.type AS column_type
                FROM sqlite_master m JOIN pragma_table_info(m.name) p
                WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%'
                ORDER BY m.name, p.cid`,
      },
      ctx,
    );
    const tables = new Map<string, { name: string; type: string | null }[]>();
    for (const [table, column, type] of await collectRows(run)) {
      const columns = tables.get(String(table)) ?? [];
      columns.push({ name: String(column), type: type ? String(type) : null });
      tables.set(String(table), columns);
    }
    return [...tables].map(([name, columns]) => ({ name, columns }));
  },
};
