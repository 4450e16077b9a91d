// The metadata store's WAL checkpoints, in a worker thread (walCheckpoints.ts starts it).
// A checkpoint copies committed pages from the write-ahead log into the database file and syncs
// both to disk: milliseconds of blocking I/O that SQLite would otherwise run on the server's
// main thread, inside whichever request's commit crossed the WAL's size threshold.
// Plain JavaScript, so the worker starts without the TypeScript loader.
import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import Database from "./sqliteDriver.mjs";

/** How often each database is looked at; a checkpoint runs only when something was committed. */
const INTERVAL_MS = 250;

/** file → { db, seen }: `seen` is the data_version at the last checkpoint. */
const watched = new Map();

function check(file, entry) {
  // data_version changes when another connection commits: nothing new, nothing to copy.
  const version = entry.db.pragma("data_version", { simple: true });
  if (version === entry.seen) return;
  // PASSIVE never waits for readers or writers: what they still use is copied next time.
  const [result] = entry.db.pragma("wal_checkpoint(PASSIVE)");
  entry.seen = version;
  parentPort.postMessage({ type: "checkpointed", file, frames: result.checkpointed });
}

const timer = setInterval(() => {
  for (const [file, entry] of watched) {
    try {
      check(file, entry);
    } catch (error) {
      // Busy or gone: the next round tries again; the database is never harmed by a skipped one.
      parentPort.postMessage({ type: "failed", file, message: String(error?.message ?? error) });
    }
  }
}, INTERVAL_MS);

parentPort.on("message", (message) => {
  if (message.type === "watch") {
    try {
      if (!watched.has(message.file) && fs.existsSync(message.file)) {
        const db = new Database(message.file, { fileMustExist: true });
        db.pragma("busy_timeout = 0");
        watched.set(message.file, { db, seen: null });
      }
      parentPort.postMessage({ type: "watching", id: message.id, ok: watched.has(message.file) });
    } catch (error) {
      parentPort.postMessage({
        type: "watching",
        id: message.id,
        ok: false,
        message: String(error),
      });
    }
  } else if (message.type === "unwatch") {
    const entry = watched.get(message.file);
    watched.delete(message.file);
    try {
      entry?.db.close();
    } finally {
      parentPort.postMessage({ type: "unwatched", id: message.id });
    }
  } else if (message.type === "stop") {
    clearInterval(timer);
    for (const entry of watched.values()) entry.db.close();
    watched.clear();
    parentPort.close();
  }
});
