import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cell, ResultColumn } from "../runners/types";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { decodeChunkText, encodeChunk } from "./chunks";
import { crc32Combine } from "./crc32Combine";
import {
  acceptsGzip,
  queryResultGzipStream,
  queryResultJsonStream,
  writeResult,
  DEFAULT_RESULT_LIMITS,
  type ResultMeta,
} from "./index";
import { forgetResults } from "./recentResults";

// The gzip answer is built from stored chunks without inflating them: decompressed (gunzip checks
// the CRC-32 and the length in the trailer), it must be the plain JSON answer, byte for byte.

const COLUMNS: ResultColumn[] = [
  { name: "id", friendly_name: "id", type: "integer" },
  { name: "name", friendly_name: "name", type: "string" },
];

let testStore: TestStore;

beforeAll(async () => {
  testStore = await openTestStore();
});
afterAll(() => testStore.close());

async function* batchesOf(total: number, size = 5000): AsyncGenerator<Cell[][]> {
  for (let start = 0; start < total; start += size) {
    const rows: Cell[][] = [];
    for (let i = start; i < Math.min(total, start + size); i++) rows.push([i, `row ${i} «ü»`]);
    yield rows;
  }
}

function store(total: number, hash: string, rowsPerChunk = 5000) {
  return writeResult(testStore.database.db, {
    orgId: testStore.orgId,
    dataSourceId: testStore.dataSourceId,
    queryHash: hash,
    query: "SELECT 1",
    columns: COLUMNS,
    batches: batchesOf(total),
    startedAt: Date.now(),
    limits: { ...DEFAULT_RESULT_LIMITS, rowsPerChunk },
  });
}

async function bytesOf(pieces: AsyncIterable<string | Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const piece of pieces) parts.push(Buffer.from(piece));
  return Buffer.concat(parts);
}

async function expectSameJson(meta: ResultMeta, options: { maxRows?: number } = {}) {
  const db = testStore.database.db;
  const plain = await bytesOf(queryResultJsonStream(db, meta, options));
  const gzipped = await bytesOf(queryResultGzipStream(db, meta, options));
  expect(gzipped.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  expect(zlib.gunzipSync(gzipped).equals(plain)).toBe(true);
  return { plain, gzipped };
}

describe("gzip answers from stored chunks", () => {
  it("combines CRC-32s as zlib computes them over the joined text", () => {
    const texts = ["", "a", "hello", ",", "x".repeat(70_000), "«ü»".repeat(1234)];
    for (const a of texts) {
      for (const b of texts) {
        const joined = zlib.crc32(Buffer.from(a + b));
        expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), Buffer.byteLength(b))).toBe(joined);
      }
    }
  });

  it("stores chunks gzip-ready and reads them back", async () => {
    const text = Buffer.from('{"id":1,"name":"x"},'.repeat(5000).slice(0, -1));
    const data = await encodeChunk(text);
    expect(data[0]).toBe(0x01);
    expect(data.readUInt32LE(1)).toBe(zlib.crc32(text));
    expect(data.readUInt32LE(5)).toBe(text.length);
    expect((await decodeChunkText(data)).equals(text)).toBe(true);
  });

  it("sends a many-chunk result as stored, and a display cap inside a chunk re-encoded", async () => {
    const meta = await store(23_456, "many");
    expect(meta.chunkCount).toBe(5);
    const { plain, gzipped } = await expectSameJson(meta);
    expect(gzipped.length).toBeLessThan(plain.length / 4);
    await expectSameJson(meta, { maxRows: 7_001 });
    await expectSameJson(meta, { maxRows: 10_000 });
    await expectSameJson(meta, { maxRows: 0 });
  });

  it("reads chunks written before the gzip-ready form, plain chunks and remembered results", async () => {
    const db = testStore.database.db;
    const meta = await store(12_000, "old");
    // Rewrite the chunks as earlier versions stored them: zlib streams.
    const chunks = await db
      .selectFrom("query_result_chunks")
      .select(["seq", "data"])
      .where("result_id", "=", meta.id)
      .execute();
    for (const chunk of chunks) {
      const text = await decodeChunkText(chunk.data);
      await db
        .updateTable("query_result_chunks")
        .set({ data: zlib.deflateSync(text, { level: 1 }) })
        .where("result_id", "=", meta.id)
        .where("seq", "=", chunk.seq)
        .execute();
    }
    await expectSameJson(meta);
    await expectSameJson(meta, { maxRows: 5_500 });

    const tiny = await store(3, "tiny");
    await expectSameJson(tiny);
    forgetResults(db, [tiny.id]);
    await expectSameJson(tiny);
    await expectSameJson(tiny, { maxRows: 1 });
    const empty = await store(0, "empty");
    await expectSameJson(empty);
  });

  it("takes gzip when Accept-Encoding offers it", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("GZIP; q=0.000")).toBe(false);
  });
});
