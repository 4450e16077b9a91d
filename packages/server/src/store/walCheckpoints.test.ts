import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, sql, type Database } from "./database";
import { checkpointEvents, checkpointWorkerForTests } from "./walCheckpoints";

const opened: Database[] = [];
const folders: string[] = [];

async function openStore(): Promise<{ database: Database; file: string }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-wal-"));
  folders.push(folder);
  const file = path.join(folder, "metadata.db");
  const database = await openDatabase(file);
  opened.push(database);
  return { database, file };
}

async function autocheckpoint(database: Database): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(
    database.db,
  );
  return rows[0]!.wal_autocheckpoint;
}

function nextCheckpoint(file: string): Promise<number> {
  return new Promise((resolve) => {
    const listener = (checkpointed: string, frames: number) => {
      if (checkpointed !== file || frames === 0) return;
      checkpointEvents.off("checkpointed", listener);
      resolve(frames);
    };
    checkpointEvents.on("checkpointed", listener);
  });
}

async function writeRows(database: Database, count: number): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS filler (text TEXT)`.execute(database.db);
  for (let i = 0; i < count; i += 1) {
    await sql`INSERT INTO filler VALUES (${"x".repeat(2000)})`.execute(database.db);
  }
}

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe("WAL checkpoints of the SQLite metadata store", () => {
  it("run in the worker thread, not in the commits of the main connection", async () => {
    const { database, file } = await openStore();
    expect(await autocheckpoint(database)).toBe(0);
    const checkpoint = nextCheckpoint(file);
    await writeRows(database, 200);
    const sizeBefore = fs.statSync(file).size;
    expect(await checkpoint).toBeGreaterThan(0);
    // The committed pages reached the database file itself.
    expect(fs.statSync(file).size).toBeGreaterThan(sizeBefore + 200 * 2000);
  });

  it("lets go of the file on close, so the store's own close removes the log", async () => {
    const { database, file } = await openStore();
    await writeRows(database, 10);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await database.close();
    opened.splice(opened.indexOf(database), 1);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    // The last store closed: the worker is gone and holds nothing open.
    expect(checkpointWorkerForTests()).toBeNull();
  });

  it("watches every open store with one worker", async () => {
    const first = await openStore();
    const second = await openStore();
    const worker = checkpointWorkerForTests();
    expect(worker).not.toBeNull();
    const checkpoints = Promise.all([nextCheckpoint(first.file), nextCheckpoint(second.file)]);
    await writeRows(first.database, 20);
    await writeRows(second.database, 20);
    await checkpoints;
    expect(checkpointWorkerForTests()).toBe(worker);
  });

  it("gives the checkpoints back to SQLite when the worker is gone", async () => {
    const { database } = await openStore();
    const worker = checkpointWorkerForTests()!;
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    await worker.terminate();
    await exited;
    expect(await autocheckpoint(database)).toBe(1000);
    // Writing and closing still work; the next store gets a new worker.
    await writeRows(database, 5);
    const next = await openStore();
    expect(await autocheckpoint(next.database)).toBe(0);
    expect(checkpointWorkerForTests()).not.toBe(worker);
  });
});
