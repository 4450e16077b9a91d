import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import type { TestClient } from "../testing/httpClient";
import { runToResult, startWithDuckdb } from "../testing/apiServer";
import { decodedBody, rawGet, type RawResponse } from "../testing/rawHttp";

// Answers built per request travel compressed (gzip, or brotli for clients without gzip), streamed
// results too, and decode to exactly the bytes an uncompressed request gets; tiny answers and
// already-compressed files (XLSX) are sent as they are.

const DATABASES = await metadataDatabases();

const rowsQuery = (n: number) =>
  `SELECT i AS id, 'customer ' || i AS name, round(i * 1.37, 2) AS amount FROM range(${n}) t(i)`;

describe.each(DATABASES)("compressed answers on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;

  beforeAll(async () => {
    ({ server, admin, dataSourceId } = await startWithDuckdb(db));
  });
  afterAll(async () => {
    await server?.close();
  });

  const resultOf = (query: string) => runToResult(admin, dataSourceId, query);

  function get(url: string, acceptEncoding?: string): Promise<RawResponse> {
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    return rawGet(server.url + url, {
      cookie,
      ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
    });
  }

  /** The same URL without and with each encoding: compressed, smaller, and the same once decoded. */
  async function expectCompressed(url: string) {
    const plain = await get(url);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "gzip"],
      ["gzip, deflate", "gzip"],
      ["br", "br"],
    ] as const) {
      const res = await get(url, accept);
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(plain.body.length / 3);
      expect(decodedBody(res).equals(plain.body)).toBe(true);
    }
    return plain;
  }

  it("compresses a big result, which streams from the stored chunks", async () => {
    const id = await resultOf(rowsQuery(20_000));
    const plain = await expectCompressed(`/api/query_results/${id}`);
    expect(plain.body.length).toBeGreaterThan(256 * 1024);
    // Still a stream once compressed: sent in chunks as it is read, its length unknown up front.
    const streamed = await get(`/api/query_results/${id}`, "gzip");
    expect(streamed.headers["transfer-encoding"]).toBe("chunked");
    expect(streamed.headers["content-length"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).query_result.data.rows).toHaveLength(20_000);
    await expectCompressed(`/api/query_results/${id}.json`);
    const csv = await expectCompressed(`/api/query_results/${id}.csv`);
    expect(csv.body.toString().split("\r\n")[0]).toBe("id,name,amount");
  });

  it("compresses a small result sent in one piece", async () => {
    const id = await resultOf(rowsQuery(200));
    const plain = await expectCompressed(`/api/query_results/${id}`);
    expect(plain.body.length).toBeLessThan(256 * 1024);
  });

  it("sends tiny answers and XLSX files as they are", async () => {
    const oneRow = await admin.request("POST", "/api/query_results", {
      json: { data_source_id: dataSourceId, query: "SELECT 1 AS x", max_age: 0 },
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(oneRow.status).toBe(200);
    expect(oneRow.body.query_result.data.rows).toEqual([{ x: 1 }]);
    expect(oneRow.headers.get("content-encoding")).toBeNull();

    const id = await resultOf(rowsQuery(2_000));
    const xlsx = await get(`/api/query_results/${id}.xlsx`, "gzip, deflate, br");
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers["content-encoding"]).toBeUndefined();
    expect(xlsx.body.subarray(0, 2).toString()).toBe("PK");
  });
});
