import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../store/database";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { JsonRows, type Cell, type ResultColumn } from "../runners/types";
import {
  contentDisposition,
  delimitedStream,
  downloadFilename,
  findCachedResult,
  loadResultMeta,
  purgeUnusedResults,
  queryResultJsonStream,
  readResultRows,
  ResultTooLargeError,
  writeResult,
  DEFAULT_RESULT_LIMITS,
  type ResultLimits,
} from "./index";

let database: Database;
let orgId: number;
let dsId: number;

const COLUMNS: ResultColumn[] = [
  { name: "id", friendly_name: "id", type: "integer" },
  { name: "name", friendly_name: "name", type: "string" },
];

async function* batchesOf(total: number, size = 5000): AsyncGenerator<Cell[][]> {
  for (let start = 0; start < total; start += size) {
    const rows: Cell[][] = [];
    for (let i = start; i < Math.min(total, start + size); i++) rows.push([i, `row ${i}`]);
    yield rows;
  }
}

function store(total: number, limits: Partial<ResultLimits> = {}, hash = "h1") {
  return writeResult(database.db, {
    orgId,
    dataSourceId: dsId,
    queryHash: hash,
    query: "SELECT 1",
    columns: COLUMNS,
    batches: batchesOf(total),
    startedAt: Date.now(),
    limits: { ...DEFAULT_RESULT_LIMITS, ...limits },
  });
}

async function collect(
  gen: AsyncIterable<string | Buffer>,
): Promise<{ text: string; pieces: number }> {
  let text = "";
  let pieces = 0;
  for await (const piece of gen) {
    text += piece;
    pieces += 1;
  }
  return { text, pieces };
}

let testStore: TestStore;

beforeAll(async () => {
  testStore = await openTestStore();
  ({ database, orgId, dataSourceId: dsId } = testStore);
});

afterAll(() => testStore.close());

describe("result store", () => {
  it("round-trips rows through compressed chunks", async () => {
    const meta = await store(12_345);
    expect(meta.rowCount).toBe(12_345);
    expect(meta.chunkCount).toBe(3);
    expect(meta.truncated).toBe(false);
    const loaded = await loadResultMeta(database.db, orgId, meta.id);
    expect(loaded).toMatchObject({ rowCount: 12_345, columns: COLUMNS, queryHash: "h1" });
    const rows: Cell[][] = [];
    for await (const chunk of readResultRows(database.db, loaded!)) rows.push(...chunk);
    expect(rows).toHaveLength(12_345);
    expect(rows[12_344]).toEqual([12_344, "row 12344"]);
    expect(await loadResultMeta(database.db, orgId + 1, meta.id)).toBeNull();
  });

  it("sends stored row objects as they are, cutting the display cap inside a chunk", async () => {
    const meta = await store(12_345);
    const { text } = await collect(queryResultJsonStream(database.db, meta, { maxRows: 7_500 }));
    const data = JSON.parse(text).query_result.data;
    expect(data.rows).toHaveLength(7_500);
    expect(data.rows[0]).toEqual({ id: 0, name: "row 0" });
    expect(data.rows[7_499]).toEqual({ id: 7_499, name: "row 7499" });
    expect(data.truncated).toBe(true);
    const whole = JSON.parse((await collect(queryResultJsonStream(database.db, meta))).text);
    expect(whole.query_result.data.rows).toHaveLength(12_345);
    expect(whole.query_result.data.truncated).toBeUndefined();
  });

  it("fails the JSON of a damaged chunk with an error, not a crash", async () => {
    const meta = await store(45_000, {}, "damaged");
    await database.db
      .updateTable("query_result_chunks")
      .set({ data: Buffer.from("not deflated") })
      .where("result_id", "=", meta.id)
      .where("seq", "=", 3)
      .execute();
    await expect(collect(queryResultJsonStream(database.db, meta))).rejects.toThrow(
      /incorrect header check/,
    );
  });

  it("stores rows the database wrote as JSON, packs cut at the row cap", async () => {
    // Packs of 4 rows as DuckDB writes them (runners/duckdbJson.ts), then two single rows.
    const row = (i: number) => JSON.stringify({ id: i, name: `row ${i}` });
    const packs = (from: number, count: number) =>
      Array.from({ length: count }, (_, p) => ({
        text: [0, 1, 2, 3].map((k) => row(from + p * 4 + k)).join(","),
        rows: 4,
      }));
    const batches = async function* () {
      yield new JsonRows(packs(0, 1500));
      yield new JsonRows([
        ...packs(6000, 1000),
        { text: row(10000), rows: 1 },
        { text: row(10001), rows: 1 },
      ]);
    };
    const write = (maxRows: number) =>
      writeResult(database.db, {
        orgId,
        dataSourceId: dsId,
        queryHash: `json-${maxRows}`,
        query: "SELECT json",
        columns: COLUMNS,
        batches: batches(),
        startedAt: Date.now(),
        limits: { ...DEFAULT_RESULT_LIMITS, maxRows },
      });
    const rowsOf = async (meta: Awaited<ReturnType<typeof write>>) => {
      const rows: Cell[][] = [];
      for await (const chunk of readResultRows(database.db, meta)) rows.push(...chunk);
      return rows;
    };
    const whole = await write(1_000_000);
    expect(whole).toMatchObject({ rowCount: 10_002, truncated: false });
    expect((await rowsOf(whole)).map((r) => r[0])).toEqual(
      Array.from({ length: 10_002 }, (_, i) => i),
    );
    // 6,002 rows kept: the cut falls inside a pack of the second batch.
    const cut = await write(6_002);
    expect(cut).toMatchObject({ rowCount: 6_002, truncated: true });
    const rows = await rowsOf(cut);
    expect(rows).toHaveLength(6_002);
    expect(rows.at(-1)).toEqual([6_001, "row 6001"]);
    expect(cut.byteSize).toBe(
      rows.map(([id, name]) => JSON.stringify({ id, name })).join(",").length,
    );
  });

  it("keeps unusual column names and text intact", async () => {
    const columns: ResultColumn[] = ["__proto__", "1", "constructor", "naïve €"].map((name) => ({
      name,
      friendly_name: name,
      type: "string",
    }));
    const row: Cell[] = ['quote " and, comma', "line\nbreak", "日本語 😀", NaN];
    const meta = await writeResult(database.db, {
      orgId,
      dataSourceId: dsId,
      queryHash: "odd",
      query: "SELECT odd",
      columns,
      batches: (async function* () {
        yield [row];
      })(),
      startedAt: Date.now(),
      limits: DEFAULT_RESULT_LIMITS,
    });
    const rows: Cell[][] = [];
    for await (const chunk of readResultRows(database.db, meta)) rows.push(...chunk);
    expect(rows).toEqual([['quote " and, comma', "line\nbreak", "日本語 😀", null]]);
    const json = JSON.parse((await collect(queryResultJsonStream(database.db, meta))).text);
    const object = json.query_result.data.rows[0];
    expect(Object.getOwnPropertyDescriptor(object, "__proto__")?.value).toBe('quote " and, comma');
    expect(object["1"]).toBe("line\nbreak");
    expect(object.constructor).toBe("日本語 😀");
    expect(object["naïve €"]).toBeNull();
  });

  it("leaves nothing behind when the runner fails, before or after the first chunk", async () => {
    const count = async () =>
      (await database.db.selectFrom("query_result_chunks").select("result_id").execute()).length +
      (await database.db.selectFrom("query_results").select("id").execute()).length;
    const before = await count();
    for (const failAfter of [1, 3]) {
      const failing = (async function* () {
        let sent = 0;
        for await (const rows of batchesOf(20_000)) {
          if (sent === failAfter) throw new Error("connection lost");
          sent += 1;
          yield rows;
        }
      })();
      await expect(
        writeResult(database.db, {
          orgId,
          dataSourceId: dsId,
          queryHash: "fails",
          query: "SELECT 1",
          columns: COLUMNS,
          batches: failing,
          startedAt: Date.now(),
          limits: DEFAULT_RESULT_LIMITS,
        }),
      ).rejects.toThrow("connection lost");
    }
    expect(await count()).toBe(before);
  });

  it("cuts the result at the row cap and marks it truncated", async () => {
    const meta = await store(20_000, { maxRows: 7_500 });
    expect(meta.rowCount).toBe(7_500);
    expect(meta.truncated).toBe(true);
    const { text } = await collect(queryResultJsonStream(database.db, meta));
    const json = JSON.parse(text);
    expect(json.query_result.data.rows).toHaveLength(7_500);
    expect(json.query_result.data.truncated).toBe(true);
  });

  it("fails past the byte cap and leaves nothing behind", async () => {
    const before = await database.db.selectFrom("query_results").select("id").execute();
    await expect(store(50_000, { maxBytes: 100_000 })).rejects.toBeInstanceOf(ResultTooLargeError);
    await expect(store(50_000, { maxBytes: 100_000 })).rejects.toThrow(
      /larger than the limit of 97.7 KB/,
    );
    const after = await database.db.selectFrom("query_results").select("id").execute();
    expect(after).toHaveLength(before.length);
  });

  it("streams a 200k-row result as Redash JSON in many pieces, with a display cap", async () => {
    const meta = await store(200_000);
    const { text, pieces } = await collect(queryResultJsonStream(database.db, meta));
    // A piece per stored chunk (40 of 5,000 rows), never the whole result at once.
    expect(meta.chunkCount).toBe(40);
    expect(pieces).toBeGreaterThan(meta.chunkCount);
    const json = JSON.parse(text);
    expect(json.query_result).toMatchObject({
      id: meta.id,
      query_hash: "h1",
      data_source_id: dsId,
    });
    expect(json.query_result.data.rows).toHaveLength(200_000);
    expect(json.query_result.data.rows[199_999]).toEqual({ id: 199_999, name: "row 199999" });
    expect(json.query_result.data.truncated).toBeUndefined();

    const capped = JSON.parse(
      (await collect(queryResultJsonStream(database.db, meta, { maxRows: 10 }))).text,
    );
    expect(capped.query_result.data.rows).toHaveLength(10);
    expect(capped.query_result.data.truncated).toBe(true);

    const reduced = JSON.parse(
      (await collect(queryResultJsonStream(database.db, meta, { maxRows: 1, reduced: true }))).text,
    );
    expect(Object.keys(reduced.query_result).sort()).toEqual(["data", "retrieved_at"]);

    const csv = await collect(delimitedStream(database.db, meta, { delimiter: "," }));
    expect(csv.pieces).toBeGreaterThan(10);
    expect(csv.text.split("\r\n")).toHaveLength(200_002);
  });
});

describe("cache lookup and purge", () => {
  it("follows max_age (§4.7)", async () => {
    const db = database.db;
    expect(
      await findCachedResult(db, { orgId, dataSourceId: dsId, queryHash: "nope", maxAge: -1 }),
    ).toBeNull();
    const old = await store(1, {}, "cache");
    const fresh = await store(1, {}, "cache");
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    const hundredDays = new Date(Date.now() - 100 * 86_400_000).toISOString();
    await db
      .updateTable("query_results")
      .set({ retrieved_at: hundredDays })
      .where("id", "=", old.id)
      .execute();
    await db
      .updateTable("query_results")
      .set({ retrieved_at: dayAgo })
      .where("id", "=", fresh.id)
      .execute();
    const lookup = { orgId, dataSourceId: dsId, queryHash: "cache" };
    expect((await findCachedResult(db, { ...lookup, maxAge: -1 }))?.id).toBe(fresh.id);
    expect(await findCachedResult(db, { ...lookup, maxAge: 60 })).toBeNull();
    expect(await findCachedResult(db, { ...lookup, maxAge: 0 })).toBeNull();
    expect(
      await findCachedResult(db, { ...lookup, dataSourceId: dsId + 1, maxAge: -1 }),
    ).toBeNull();
    const recent = await store(1, {}, "cache");
    await db
      .updateTable("query_results")
      .set({ retrieved_at: new Date(Date.now() - 30_000).toISOString() })
      .where("id", "=", recent.id)
      .execute();
    expect((await findCachedResult(db, { ...lookup, maxAge: 120 }))?.id).toBe(recent.id);
  });

  it("purges unreferenced results older than 7 days, with their chunks", async () => {
    const db = database.db;
    const stale = await store(10, {}, "stale");
    await db
      .updateTable("query_results")
      .set({ retrieved_at: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .execute();
    const purged = await purgeUnusedResults(db, { limit: 1000 });
    expect(purged).toBeGreaterThan(0);
    expect(await loadResultMeta(db, orgId, stale.id)).toBeNull();
    const chunks = await db
      .selectFrom("query_result_chunks")
      .select("result_id")
      .where("result_id", "=", stale.id)
      .execute();
    expect(chunks).toHaveLength(0);
  });
});

describe("download formats (§4.4)", () => {
  it("writes CSV with CRLF, minimal quoting and per-type conversions", async () => {
    const columns: ResultColumn[] = [
      { name: "d", friendly_name: "d", type: "date" },
      { name: "dt", friendly_name: "dt", type: "datetime" },
      { name: "b", friendly_name: "b", type: "boolean" },
      { name: "n", friendly_name: "n", type: "integer" },
      { name: "s", friendly_name: "s", type: "string" },
    ];
    async function* rows(): AsyncGenerator<Cell[][]> {
      yield [
        ["2019-05-26", "2019-05-26T12:39:23.026Z", true, 459, 'a,"b"'],
        [null, null, false, null, "line\nbreak"],
        [null, null, null, "459", "plain"],
      ];
    }
    const meta = await writeResult(database.db, {
      orgId,
      dataSourceId: dsId,
      queryHash: "csv",
      query: "x",
      columns,
      batches: rows(),
      startedAt: Date.now(),
      limits: DEFAULT_RESULT_LIMITS,
    });
    // Dates and times in ISO 8601 as stored, whatever the organisation's date format.
    const csv = (await collect(delimitedStream(database.db, meta, { delimiter: "," }))).text;
    expect(csv).toBe(
      'd,dt,b,n,s\r\n2019-05-26,2019-05-26T12:39:23.026Z,true,459,"a,""b"""\r\n,,false,,"line\nbreak"\r\n,,,459,plain\r\n',
    );
    const tsv = (await collect(delimitedStream(database.db, meta, { delimiter: "\t" }))).text;
    expect(tsv.split("\r\n")[1]).toBe('2019-05-26\t2019-05-26T12:39:23.026Z\ttrue\t459\t"a,""b"""');
  });

  it("names downloads after the query and encodes non-ASCII names", () => {
    const retrievedAt = "2024-03-05T10:00:00.000Z";
    expect(downloadFilename({ resultId: 7, retrievedAt, extension: "csv" })).toBe(
      "7_2024_03_05.csv",
    );
    expect(
      downloadFilename({
        query: { id: 3, name: 'Sales: Q1 / "EU"?' },
        resultId: 7,
        retrievedAt,
        extension: "xlsx",
      }),
    ).toBe("Sales_Q1_EU_2024_03_05.xlsx");
    expect(
      downloadFilename({
        query: { id: 3, name: "\u0007" },
        resultId: 7,
        retrievedAt,
        extension: "json",
      }),
    ).toBe("3_2024_03_05.json");
    expect(contentDisposition("a_2024_03_05.csv")).toBe("attachment; filename=a_2024_03_05.csv");
    expect(contentDisposition("a(1).csv")).toBe('attachment; filename="a(1).csv"');
    const hebrew = contentDisposition("שאילתה_2024_03_05.csv");
    expect(/^[\x20-\x7e]*$/.test(hebrew)).toBe(true);
    expect(hebrew).toContain("filename*=UTF-8''%D7%A9");
  });
});
