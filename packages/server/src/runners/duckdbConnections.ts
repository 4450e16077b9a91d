import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { resolveDataFile, resolveDataFolder } from "./dataFiles";
import type { DataSourceOptions, OwnFiles, RunContext } from "./types";

/**
 * Opening DuckDB databases for a run: the sandbox (allowed folder, locked configuration), warm
 * file instances with a spare connection, and a fresh in-memory database per run.
 */

export const MEMORY = ":memory:";

/** What a database may touch outside itself: its files folder, and its own files. */
interface FileAccess {
  /** Folders (with a trailing slash) readable and writable by path. */
  directories: string[];
  /** Single files: a database's own file and write-ahead log. */
  paths: string[];
}

async function settingList(connection: DuckDBConnection, name: string): Promise<string[]> {
  const result = await connection.runAndReadAll(`SELECT current_setting('${name}')::VARCHAR[]`);
  const value = result.getRowsJson()[0]?.[0];
  return Array.isArray(value) ? value.map(String) : [];
}

async function isLocked(connection: DuckDBConnection): Promise<boolean> {
  const result = await connection.run("SELECT current_setting('lock_configuration')");
  const rows = await result.getRows();
  return rows[0]?.[0] === true;
}

/** Whether a locked instance was sandboxed with exactly this access. */
async function hasAccess(connection: DuckDBConnection, access: FileAccess): Promise<boolean> {
  const [directories, paths, temp] = await Promise.all([
    settingList(connection, "allowed_directories"),
    settingList(connection, "allowed_paths"),
    connection.runAndReadAll("SELECT current_setting('temp_directory')::VARCHAR"),
  ]);
  // DuckDB adds its own temporary folder to the allowed ones.
  const tempFolder = String(temp.getRowsJson()[0]?.[0] ?? "").replace(/\/+$/, "");
  const own = directories.filter((d) => !tempFolder || d.replace(/\/+$/, "") !== tempFolder);
  const same = (a: string[], b: string[]) =>
    a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
  // Paths are the database's own files (DuckDB adds its write-ahead log's siblings too).
  return same(own, access.directories) && access.paths.every((p) => paths.includes(p));
}

const quoted = (items: string[]) =>
  `[${items.map((i) => `'${i.replace(/'/g, "''")}'`).join(", ")}]`;

/**
 * Limits file access to the data source's own files folder and database file, then locks the
 * configuration so queries cannot undo it. Settings are per database instance; file instances
 * are shared within the process (DuckDB must not open one file twice), so an instance that is
 * already locked must have been sandboxed with the same access, or the run is refused.
 */
async function sandbox(
  connection: DuckDBConnection,
  access: FileAccess,
  inMemory: boolean,
): Promise<void> {
  if (await isLocked(connection)) {
    if (await hasAccess(connection, access)) return;
    throw new Error(SHARED_FILE_CONFLICT);
  }
  try {
    if (inMemory) await connection.run("SET temp_directory = ''");
    await connection.run(`SET allowed_directories = ${quoted(access.directories)}`);
    await connection.run(`SET allowed_paths = ${quoted(access.paths)}`);
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
  } catch (error) {
    // Another query sandboxed the same instance at the same moment.
    if (!(await isLocked(connection))) throw error;
    if (!(await hasAccess(connection, access)))
      throw new Error(SHARED_FILE_CONFLICT, { cause: error });
  }
}

export const SHARED_FILE_CONFLICT =
  "This database file is open for another data source with another Files Folder. Give data sources on the same file the same Files Folder.";

/** A run's connections to one database: the first, and one opened to re-run it as JSON. */
export interface Opened {
  connection: DuckDBConnection;
  /** Another new connection to the same database, closed with the first. */
  another(): Promise<DuckDBConnection>;
  close(): void;
}

function opened(
  first: DuckDBConnection,
  connect: () => Promise<DuckDBConnection>,
  afterClose?: () => void,
): Opened {
  const connections = [first];
  return {
    connection: first,
    async another() {
      const connection = await connect();
      connections.push(connection);
      return connection;
    },
    close() {
      // Closing is synchronous work for the main thread (~0.1 ms): done once the run's answer
      // has gone out, not in front of it.
      setImmediate(() => {
        for (const connection of connections) connection.closeSync();
        afterClose?.();
      });
    },
  };
}

/** The database file (none in memory) and files folder of a data source, resolved and checked. */
export function duckdbOwnFiles(options: DataSourceOptions, ctx: RunContext): OwnFiles {
  const dbpath = databasePath(options);
  const folder = resolveDataFolder(options.files_folder, ctx);
  return {
    files: dbpath === MEMORY ? [] : [resolveDataFile(dbpath, ctx)],
    folders: folder ? [folder] : [],
  };
}

function databasePath(options: DataSourceOptions): string {
  return typeof options.dbpath === "string" && options.dbpath.trim()
    ? options.dbpath.trim()
    : MEMORY;
}

export async function openDuckdb(options: DataSourceOptions, ctx: RunContext): Promise<Opened> {
  const dbpath = databasePath(options);
  const accessMode = options.read_only === true ? "READ_ONLY" : "READ_WRITE";
  // A warm instance passed the folder checks below with these same inputs, and holding it keeps
  // the file it checked open: it is reused without the file-system lookups.
  const filesFolder = typeof options.files_folder === "string" ? options.files_folder.trim() : "";
  const key = JSON.stringify([
    accessMode,
    dbpath,
    filesFolder,
    ctx.fileDataDir,
    ctx.forbiddenPaths,
  ]);
  const warm = dbpath === MEMORY ? undefined : recentlySandboxed.get(key);
  if (warm) {
    keepWarm(key, warm.instance);
    // The next spare is opened once this run is over, not while its query is being prepared.
    return opened(
      await freshConnection(warm),
      () => freshConnection(warm),
      () => openSpare(key),
    );
  }
  const folder = resolveDataFolder(filesFolder, ctx);
  const directories = folder ? [`${folder.replace(/\/+$/, "")}/`] : [];
  const engineOptions = {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
  };
  if (dbpath === MEMORY) {
    // A fresh database per query: nothing is shared between data sources or runs.
    const instance = await DuckDBInstance.create(MEMORY, engineOptions);
    const close = () => instance.closeSync();
    try {
      const connection = await instance.connect();
      await sandbox(connection, { directories, paths: [] }, true);
      return opened(connection, () => instance.connect(), close);
    } catch (error) {
      close();
      throw error;
    }
  }
  const file = resolveDataFile(dbpath, ctx);
  const instance = await DuckDBInstance.fromCache(file, {
    ...engineOptions,
    access_mode: accessMode,
  });
  const connection = await instance.connect();
  try {
    await sandbox(connection, { directories, paths: [file, `${file}.wal`] }, false);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  keepWarm(key, instance);
  return opened(
    connection,
    () => instance.connect(),
    () => openSpare(key),
  );
}

/**
 * File instances sandboxed by this process, held for a while after their last query so that the
 * next run skips the `lock_configuration` check (a query of ~1 ms). Holding the instance keeps the
 * same, locked database open; once released, DuckDB may close it and the check runs again.
 * Each holds a spare connection, opened in the background after a query's run: every query still
 * gets a connection of its own, never used before, without waiting for it.
 */
interface WarmInstance {
  instance: DuckDBInstance;
  timer?: NodeJS.Timeout;
  spare: Promise<DuckDBConnection | null> | null;
}
const recentlySandboxed = new Map<string, WarmInstance>();
const KEEP_WARM_MS = 60_000;

function keepWarm(key: string, instance: DuckDBInstance): void {
  let entry = recentlySandboxed.get(key);
  if (entry) clearTimeout(entry.timer);
  if (entry && entry.instance !== instance) {
    void closeSpare(entry);
    entry = undefined;
  }
  const held: WarmInstance = entry ?? { instance, spare: null };
  held.timer = setTimeout(() => {
    if (recentlySandboxed.get(key) === held) recentlySandboxed.delete(key);
    void closeSpare(held);
  }, KEEP_WARM_MS);
  held.timer.unref();
  recentlySandboxed.set(key, held);
}

/** The warm instance's spare connection, or a new one when there is none (or it is taken). */
async function freshConnection(warm: WarmInstance): Promise<DuckDBConnection> {
  const spare = warm.spare;
  warm.spare = null;
  return (await spare) ?? warm.instance.connect();
}

/** Opens a spare connection for the next query on a warm instance, unless one is there. */
function openSpare(key: string): void {
  const warm = recentlySandboxed.get(key);
  if (warm && !warm.spare) warm.spare = warm.instance.connect().catch(() => null);
}

async function closeSpare(entry: WarmInstance): Promise<void> {
  const spare = entry.spare;
  entry.spare = null;
  (await spare)?.closeSync();
}
