import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BatchChannel } from "./batchChannel";
import { resolveDataFile } from "./dataFiles";
import { watchQuery } from "./queryWatch";
import type { Cell, CellRun, ColumnType, DataSourceOptions, RunContext, Runner } from "./types";
import { buildColumns, guessType, toCell } from "./values";

const BATCH_SIZE = 5000;
const CHILD_SCRIPT = fileURLToPath(new URL("./sqliteProcess.mjs", import.meta.url));

type ChildMessage =
  | { type: "columns"; columns: { name: string; declaredType: string | null }[] }
  | { type: "batch"; rows: unknown[][] }
  | { type: "done" }
  | { type: "error"; message: string };

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
  const child = fork(CHILD_SCRIPT, [], {
    serialization: "advanced",
    execArgv: [],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 2000) stderr += chunk.toString();
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const channel = new BatchChannel<Cell[][]>(stop);

  return new Promise<CellRun>((resolve, reject) => {
    let declared: { name: string; declaredType: string | null }[] = [];
    let types: ColumnType[] = [];
    let started = false;
    let ended = false;

    const start = (firstRows: unknown[][]) => {
      started = true;
      types = declared.map((column, i) => {
        const fromDeclared = sqliteColumnType(column.declaredType);
        if (fromDeclared) return fromDeclared;
        const sample = firstRows.find((row) => row[i] !== null && row[i] !== undefined);
        return sample ? guessType(toCell(sample[i])) : null;
      });
      const columns = buildColumns(declared.map((c, i) => ({ name: c.name, type: types[i] })));
      resolve({ columns, batches: channel });
    };
    const convert = (rows: unknown[][]): Cell[][] =>
      rows.map((row) => row.map((value, i) => toCell(value, types[i])));
    const fail = (error: Error) => {
      if (ended) return;
      ended = true;
      watch.dispose();
      stop();
      if (started) channel.fail(error);
      else reject(error);
    };

    watch.signal.addEventListener("abort", () => fail(watch.signal.reason as Error), {
      once: true,
    });
    child.on("message", (message: ChildMessage) => {
      if (ended) return;
      switch (message.type) {
        case "columns":
          declared = message.columns;
          break;
        case "batch":
          if (!started) start(message.rows);
          void channel.push(convert(message.rows)).then((more) => {
            if (more && child.connected) child.send({ type: "more" }, () => undefined); // the child may have just finished
          });
          break;
        case "done":
          if (!started) start([]);
          ended = true;
          watch.dispose();
          channel.end();
          break;
        case "error":
          fail(new Error(message.message));
          break;
      }
    });
    child.on("error", (error) => fail(error));
    child.on("exit", () => {
      if (!ended) fail(watch.explain(new Error(`SQLite stopped unexpectedly. ${stderr}`.trim())));
    });
    child.send({ ...job, batchSize: BATCH_SIZE });
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
  name: "Sqlite",
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
