import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "../store/database";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import type { Cell, ResultColumn } from "../runners/types";
import { decodeChunkText, encodeChunk } from "./chunks";
import { forgetResults, recentResult, rememberResult } from "./recentResults";
import {
  deleteResults,
  loadResultMeta,
  queryResultJsonStream,
  writeResult,
  DEFAULT_RESULT_LIMITS,
  type ResultMeta,
} from "./index";

const COLUMNS: ResultColumn[] = [
  { name: "id", friendly_name: "id", type: "integer" },
  { name: "name", friendly_name: "name", type: "string" },
];

function metaOf(id: number, orgId = 1, chunkCount = 1): ResultMeta {
  return {
    id,
    orgId,
    dataSourceId: 1,
    queryHash: "h",
    query: "SELECT 1",
    runtime: 0,
    retrievedAt: "2026-01-01T00:00:00.000Z",
    columns: COLUMNS,
    rowCount: 1,
    byteSize: 10,
    truncated: false,
    log: [],
    chunkCount,
    chunkLocation: null,
  };
}

describe("recent results in memory", () => {
  afterEach(() => vi.useRealTimers());

  it("keeps small one-chunk results per store and organisation, for a minute", () => {
    vi.useFakeTimers();
    const store = {};
    const text = Buffer.from('{"id":1,"name":"a"}');
    rememberResult(store, metaOf(1), text);
    expect(recentResult(store, 1, 1)?.text).toBe(text);
    expect(recentResult({}, 1, 1)).toBeNull();
    expect(recentResult(store, 2, 1)).toBeNull();
    vi.advanceTimersByTime(61_000);
    expect(recentResult(store, 1, 1)).toBeNull();
  });

  it("does not keep big or several-chunk results, and holds a bounded number", () => {
    const store = {};
    rememberResult(store, metaOf(1, 1, 2), Buffer.from("{}"));
    rememberResult(store, metaOf(2), Buffer.alloc(64 * 1024 + 1, "x"));
    expect(recentResult(store, 1, 1)).toBeNull();
    expect(recentResult(store, 1, 2)).toBeNull();
    for (let id = 10; id < 110; id += 1) rememberResult(store, metaOf(id), Buffer.from("{}"));
    expect(recentResult(store, 1, 10)).toBeNull();
    expect(recentResult(store, 1, 109)).not.toBeNull();
    forgetResults(store, [109]);
    expect(recentResult(store, 1, 109)).toBeNull();
  });
});

describe("chunk encoding", () => {
  it("stores a tiny chunk as its text and deflates a bigger one; both decode", async () => {
    const tiny = Buffer.from('{"a":1},{"a":2}');
    const stored = await encodeChunk(tiny);
    expect(stored.toString()).toBe(tiny.toString());
    expect((await decodeChunkText(stored)).toString()).toBe(tiny.toString());

    const bigger = Buffer.from(Array.from({ length: 100 }, (_, i) => `{"a":${i}}`).join(","));
    const deflated = await encodeChunk(bigger);
    expect(deflated[0]).toBe(0x01); // gzip-ready (chunks.ts)
    expect(deflated.length).toBeLessThan(bigger.length);
    expect((await decodeChunkText(deflated)).toString()).toBe(bigger.toString());
  });
});

describe("writing and reading back a fresh result", () => {
  let testStore: TestStore;
  let database: Database;
  let other: Database;
  let orgId: number;
  let dsId: number;

  beforeAll(async () => {
    testStore = await openTestStore();
    ({ database, orgId, dataSourceId: dsId } = testStore);
    // A second store on the same file has no results in memory: it reads what was stored.
    other = await openDatabase(testStore.file);
  });

  afterAll(async () => {
    await other.close();
    await testStore.close();
  });

  async function* rows(count: number): AsyncGenerator<Cell[][]> {
    yield Array.from({ length: count }, (_, i) => [i, `row ${i}`]);
  }

  const write = (count: number, beforeCommit?: () => Promise<void>) =>
    writeResult(database.db, {
      orgId,
      dataSourceId: dsId,
      queryHash: `h${count}`,
      query: "SELECT 1",
      columns: COLUMNS,
      batches: rows(count),
      startedAt: Date.now(),
      limits: DEFAULT_RESULT_LIMITS,
      beforeCommit,
    });

  async function answer(db: Database, id: number): Promise<string> {
    const meta = await loadResultMeta(db.db, orgId, id);
    let text = "";
    for await (const piece of queryResultJsonStream(db.db, meta!)) text += piece.toString();
    return text;
  }

  it("answers from memory exactly what the store answers", async () => {
    for (const count of [1, 3, 200]) {
      const meta = await write(count);
      expect(recentResult(database.db, orgId, meta.id)).not.toBeNull();
      const fromMemory = await answer(database, meta.id);
      expect(fromMemory).toBe(await answer(other, meta.id));
      expect(JSON.parse(fromMemory).query_result.data.rows).toHaveLength(count);
    }
  });

  it("forgets deleted results, and never serves another organisation", async () => {
    const meta = await write(2);
    expect(await loadResultMeta(database.db, orgId + 1, meta.id)).toBeNull();
    await deleteResults(database.db, [meta.id]);
    expect(await loadResultMeta(database.db, orgId, meta.id)).toBeNull();
  });

  it("stores nothing when the caller's work in the same transaction fails", async () => {
    const count = async () =>
      (await other.db.selectFrom("query_results").select("id").execute()).length;
    const before = await count();
    await expect(
      write(4, async () => {
        throw new Error("link failed");
      }),
    ).rejects.toThrow("link failed");
    expect(await count()).toBe(before);
  });
});
