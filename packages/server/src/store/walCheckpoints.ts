import { EventEmitter } from "node:events";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";

/**
 * WAL checkpoints of the SQLite metadata store run in one worker thread per process
 * (walCheckpointer.mjs) instead of inside commits on the main thread. SQLite's automatic
 * checkpoint runs in the commit that crosses 1,000 WAL pages and syncs the files to disk there:
 * with `synchronous = NORMAL` that was two thirds of an average commit's time, and a stall of
 * milliseconds for the request that happened to cross it. If the worker cannot run, the
 * connection keeps SQLite's automatic checkpoints.
 */

const WORKER_SCRIPT = new URL("./walCheckpointer.mjs", import.meta.url);
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** After a checkpoint resets the log, its file is cut back to this size (SQLite keeps it else). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
const ACK_TIMEOUT_MS = 5_000;

type WorkerMessage =
  | { type: "watching"; id: number; ok: boolean; message?: string }
  | { type: "unwatched"; id: number }
  | { type: "checkpointed"; file: string; frames: number }
  | { type: "failed"; file: string; message: string };

/** Checkpoints done by the worker, for tests and diagnostics: ("checkpointed", file, frames). */
export const checkpointEvents = new EventEmitter();

interface Watched {
  connections: Set<SQLite.Database>;
}

let worker: Worker | null = null;
const watched = new Map<string, Watched>();
const waiting = new Map<number, (message: WorkerMessage) => void>();
let nextId = 1;

function startWorker(): Worker {
  const started = new Worker(WORKER_SCRIPT);
  started.unref();
  started.on("message", (message: WorkerMessage) => {
    if (message.type === "checkpointed") {
      checkpointEvents.emit("checkpointed", message.file, message.frames);
    } else if (message.type === "failed") {
      checkpointEvents.emit("failed", message.file, message.message);
    } else {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const lost = () => {
    if (worker !== started) return;
    worker = null;
    // Without the worker, SQLite checkpoints in the commits again.
    for (const entry of watched.values()) {
      for (const connection of entry.connections) restoreAutomatic(connection);
    }
    watched.clear();
    for (const reply of waiting.values()) reply({ type: "unwatched", id: 0 });
    waiting.clear();
  };
  started.on("error", lost);
  started.on("exit", lost);
  return started;
}

function restoreAutomatic(connection: SQLite.Database): void {
  if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
}

/** Sends a request to the worker and waits for its answer (the worker is held meanwhile). */
function ask(target: Worker, message: object): Promise<WorkerMessage | null> {
  const id = nextId++;
  target.ref();
  return new Promise<WorkerMessage | null>((resolve) => {
    const timer = setTimeout(() => finish(null), ACK_TIMEOUT_MS);
    function finish(answer: WorkerMessage | null) {
      clearTimeout(timer);
      waiting.delete(id);
      if (worker === target) target.unref();
      resolve(answer);
    }
    waiting.set(id, finish);
    target.postMessage({ ...message, id });
  });
}

/**
 * Moves the checkpoints of `connection` (a WAL-mode database at `file`) to the worker. Returns
 * the function to call before closing the connection: the worker lets go of the file first, so
 * that the store's own close is the last one and removes the log.
 */
export async function checkpointInBackground(
  connection: SQLite.Database,
  file: string,
): Promise<() => Promise<void>> {
  connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  let entry = watched.get(file);
  if (!entry) {
    worker ??= startWorker();
    const answer = await ask(worker, { type: "watch", file });
    if (answer?.type !== "watching" || !answer.ok) return async () => undefined;
    entry = watched.get(file) ?? { connections: new Set() };
    watched.set(file, entry);
  }
  entry.connections.add(connection);
  connection.pragma("wal_autocheckpoint = 0");
  const target = worker;
  return async () => {
    const current = watched.get(file);
    if (!current?.connections.delete(connection)) return;
    if (current.connections.size > 0 || worker !== target || !target) return;
    watched.delete(file);
    await ask(target, { type: "unwatch", file });
    if (watched.size === 0 && worker === target) {
      worker = null;
      target.postMessage({ type: "stop" });
    }
  };
}

/** The running worker, for tests that stop it to see the fallback. */
export function checkpointWorkerForTests(): Worker | null {
  return worker;
}
