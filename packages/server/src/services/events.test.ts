import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../store/database";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { flushEvents, recordEventSoon } from "./events";

describe("events recorded soon", () => {
  let testStore: TestStore;
  let database: Database;
  let orgId: number;

  beforeAll(async () => {
    testStore = await openTestStore();
    ({ database, orgId } = testStore);
  });

  afterAll(() => testStore.close());

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

  it("are written one by one when the batch is refused, losing only the bad one", async () => {
    recordEventSoon(database.db, { orgId, userId: 999_999, action: "orphan", objectType: "x" });
    record("kept", 1);
    await flushEvents(database.db);
    expect(await stored("kept")).toBe(1);
    expect(await stored("orphan")).toBe(0);
  });

  it("are written without waiting once a hundred are waiting", async () => {
    for (let i = 0; i < 100; i += 1) record("many", i);
    await expect.poll(() => stored("many"), { timeout: 100, interval: 5 }).toBe(100);
  });
});
