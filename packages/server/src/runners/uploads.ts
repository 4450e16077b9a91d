import { createHash } from "node:crypto";
import path from "node:path";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { assertReadsOnly } from "./duckdbReadOnly";
import { streamDuckdbResult } from "./duckdbStreams";
import type { FileFormat, FileQuery } from "./fileQuery";
import { readerCall, sandboxedDuckdb } from "./files";
import { sheetCopy } from "./fileSheets";
import { fileCacheFolder, pruneCacheNowAndThen, uploadedSheetsFolder } from "./fileUrl";
import { watchQuery } from "./queryWatch";
import {
  listUploads,
  tableNames,
  uploadFormat,
  UPLOAD_EXTENSIONS,
  type UploadedFile,
} from "./uploadFiles";
import { withFilePaths } from "./uploadSql";
import type { QueryRun, RunContext, Runner, SchemaTable } from "./types";

/**
 * Uploaded files (Sightline's `uploads` type): an admin uploads files into the data source's own
 * folder (http/dataSources/fileRoutes.ts); queries are DuckDB SQL over them, each file a table
 * named after it (`sales` for sales.csv), or read by name (`read_csv('sales.csv')`,
 * `FROM 'sales.csv'`). DuckDB runs in memory and may read that folder only; statements that
 * write are refused. XLSX files are read through a CSV copy of their first sheet.
 */

const READER_DEFAULTS: FileQuery = { url: "", format: null, sql: null, header: true };

const NO_FOLDER =
  "This data source's uploaded files cannot be reached here (no data source folder was given).";

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function folderOf(ctx: RunContext): string {
  if (!ctx.uploadsDir) throw new Error(NO_FOLDER);
  return path.resolve(ctx.uploadsDir);
}

/** What DuckDB reads for a file: the file itself, or a CSV copy of an XLSX file's first sheet. */
interface Readable {
  file: UploadedFile;
  table: string;
  format: FileFormat;
  path: string;
}

async function readable(
  folder: string,
  file: UploadedFile,
  table: string,
  ctx: RunContext,
): Promise<Readable> {
  const format = uploadFormat(file.name)!;
  const own = path.join(folder, file.name);
  if (format !== "xlsx") return { file, table, format, path: own };
  // The copies are named after the file's place: a replaced file gets new ones, and the
  // replaced file's copies are removed.
  const place = createHash("sha256").update(own).digest("hex").slice(0, 20);
  const copy = await sheetCopy(own, 0, 0, uploadedSheetsFolder(ctx), `${place}-`);
  pruneCacheNowAndThen(fileCacheFolder(ctx));
  return { file, table, format, path: copy };
}

/** DuckDB's message without the folder's path (files are named as uploaded) or generated SQL. */
function shownMessage(error: unknown, folder: string, copies: Readable[]): string {
  let message = (error instanceof Error ? error.message : String(error)).split(
    /\n\s*LINE \d+:/,
  )[0]!;
  for (const copy of copies) message = message.split(copy.path).join(copy.file.name);
  return message.split(`${folder}/`).join("").trim();
}

interface Session {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  copies: Readable[];
}

/** A sandboxed DuckDB over the folder, with a view for each of `files`. */
async function openSession(
  folder: string,
  files: Readable[],
  onView?: (file: Readable, error: unknown) => void,
): Promise<Session> {
  const copies = files.filter((f) => f.format === "xlsx");
  const { instance, connection } = await sandboxedDuckdb(
    copies.map((c) => c.path),
    [`${folder}/`],
  );
  try {
    for (const file of files) {
      const reader = readerCall(file.path, file.format === "xlsx" ? "csv" : file.format, {
        ...READER_DEFAULTS,
      });
      try {
        await connection.run(
          `CREATE TEMP VIEW ${quoteIdent(file.table)} AS SELECT * FROM ${reader}`,
        );
      } catch (error) {
        const message = `The file ${file.file.name} could not be read as ${file.format.toUpperCase()}: ${shownMessage(error, folder, copies)}`;
        if (!onView) throw new Error(message, { cause: error });
        onView(file, new Error(message, { cause: error }));
      }
    }
    return { instance, connection, copies };
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
}

/** The folder's files as tables, each with what DuckDB reads. */
async function allReadables(folder: string, ctx: RunContext): Promise<Readable[]> {
  const files = await listUploads(folder);
  const names = tableNames(files);
  return Promise.all(files.map((file) => readable(folder, file, names.get(file.name)!, ctx)));
}

async function runUploads(query: string, ctx: RunContext): Promise<QueryRun> {
  const folder = folderOf(ctx);
  const watch = watchQuery(ctx);
  let session: Session | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    const held = session;
    if (held) {
      setImmediate(() => {
        held.connection.closeSync();
        held.instance.closeSync();
      });
    }
  };
  try {
    const files = await listUploads(folder);
    const names = tableNames(files);
    const lower = query.toLowerCase();
    // Views only for the files the text mentions: each view reads its file's header.
    const mentioned = files.filter(
      (f) =>
        lower.includes(names.get(f.name)!.toLowerCase()) || lower.includes(f.name.toLowerCase()),
    );
    const readables = await Promise.all(
      mentioned.map((file) => readable(folder, file, names.get(file.name)!, ctx)),
    );
    if (watch.signal.aborted) throw watch.signal.reason;
    session = await openSession(folder, readables);
    const connection = session.connection;
    watch.signal.addEventListener("abort", () => connection.interrupt(), { once: true });
    const byName = new Map(readables.map((r) => [r.file.name, r]));
    const sql = withFilePaths(query, UPLOAD_EXTENSIONS, (name) =>
      byName.get(name)?.format === "xlsx" ? byName.get(name)!.path : path.join(folder, name),
    );
    await assertReadsOnly(connection, sql);
    let result;
    try {
      result = await connection.stream(sql);
    } catch (error) {
      throw new Error(shownMessage(error, folder, session.copies), { cause: error });
    }
    return streamDuckdbResult(result, connection, watch, close);
  } catch (error) {
    const explained = watch.explain(error);
    close();
    throw explained;
  }
}

/** Each file as a table with its columns (DuckDB's DESCRIBE); a file that cannot be read says so. */
async function uploadsSchema(ctx: RunContext): Promise<SchemaTable[]> {
  const folder = folderOf(ctx);
  const readables = await allReadables(folder, ctx);
  const failed = new Set<string>();
  const session = await openSession(folder, readables, (file) => failed.add(file.table));
  try {
    const tables: SchemaTable[] = [];
    for (const file of readables) {
      if (failed.has(file.table)) {
        tables.push({ name: file.table, columns: [] });
        continue;
      }
      const described = await session.connection.runAndReadAll(
        `DESCRIBE ${quoteIdent(file.table)}`,
      );
      tables.push({
        name: file.table,
        columns: described.getRowsJson().map((row) => ({
          name: String(row[0]),
          type: row[1] === null ? null : String(row[1]),
        })),
      });
    }
    return tables;
  } finally {
    session.connection.closeSync();
    session.instance.closeSync();
  }
}

export const uploadsRunner: Runner = {
  type: "uploads",
  name: "Uploaded files",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: { type: "object", properties: {}, order: [] },
  run: (_options, query, ctx) => runUploads(query, ctx),
  async test(_options, ctx) {
    const folder = folderOf(ctx);
    await listUploads(folder);
  },
  getSchema: (_options, ctx) => uploadsSchema(ctx),
};
