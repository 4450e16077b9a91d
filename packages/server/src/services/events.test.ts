import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../store/database";
import { migrate } from "../store/migrate";
import { now } from "../store/values";
import { flushEvents, recordEventSoon } from "./events";

describe("events recorded soon", () => {
  let dir: string;
  let database: Database;
  let orgId: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-events-"));
    database = await openDatabase(path.join(dir, "meta.db"));
    await migrate(database);
    const ts = now();
    ({ id: orgId } = await database.db
      .insertInto("organizations")
      .values({ name: "o", slug: "o", settings: "{}", created_at: ts, updated_at: ts })
      .returning("id")
      .executeTakeFirstOrThrow());
  });

  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (action: string) =>
    (await database.db.selectFrom("events").selectAll().where("action", "=", action).execute())
      .length;
  const record = (action: string, objectId: number) =>
    recordEventSoon(database.db, { orgId, userId: null, action, objectType: "x", objectId });

  it("are written together shortly after, or at once when flushed", async () => {
    record("later", 1);
    record("later", 2);
    expect(await stored("later")).toBe(0);
    await expect.poll(() => stored("later"), { timeout: 2000, interval: 20 }).toBe(2);

    record("flushed", 1);
    await flushEvents(database.db);
    expect(await stored("flushed")).toBe(1);
    await flushEvents(database.db);
    expect(await stored("flushed")).toBe(1);
  });

  it("are written without waiting once a hundred are waiting", async () => {
    for (let i = 0; i < 100; i += 1) record("many", i);
    await expect.poll(() => stored("many"), { timeout: 100, interval: 5 }).toBe(100);
  });
});
