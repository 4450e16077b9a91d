import SQLite from "./sqliteDriver.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase, sql, sqliteWithBooleans } from "./database";

describe("SQLite metadata store", () => {
  it("reuses prepared statements and binds booleans", () => {
    const db = sqliteWithBooleans(new SQLite(":memory:"));
    db.prepare("CREATE TABLE t (id INTEGER, flag INTEGER)").run();
    const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
    expect(db.prepare("INSERT INTO t VALUES (?, ?)")).toBe(insert);
    insert.run([1, true]);
    insert.run([2, false]);
    insert.run([3, true]);
    const select = "SELECT id FROM t WHERE flag = ? ORDER BY id";
    expect(db.prepare(select).all([true])).toEqual([{ id: 1 }, { id: 3 }]);
    db.close();
  });

  it("prepares a fresh statement while the cached one is still iterating", () => {
    const db = sqliteWithBooleans(new SQLite(":memory:"));
    db.prepare("CREATE TABLE t (id INTEGER)").run();
    for (const id of [1, 2, 3]) db.prepare("INSERT INTO t VALUES (?)").run([id]);
    const select = "SELECT id FROM t ORDER BY id";
    const outer = db.prepare(select);
    const seen: number[][] = [];
    for (const row of outer.iterate([]) as Iterable<{ id: number }>) {
      const inner = db.prepare(select);
      expect(inner).not.toBe(outer);
      seen.push([row.id, (inner.all([]) as { id: number }[]).length]);
    }
    expect(seen).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Done iterating: the cached statement is handed out again.
    expect(db.prepare(select)).toBe(outer);
    db.close();
  });

  it("opens files in WAL mode with synchronous = NORMAL", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-store-"));
    const database = await openDatabase(path.join(dir, "meta.db"));
    try {
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(database.db);
      const sync = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe("wal");
      expect(sync.rows[0]?.synchronous).toBe(1);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
