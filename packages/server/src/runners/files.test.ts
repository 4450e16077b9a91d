import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "../outbound/client";
import { parseFileQuery, XLS_REFUSED } from "./fileQuery";
import { csvRunner, excelRunner } from "./files";
import { KEEP_REPLACED_COPY_MS } from "./fileSheets";
import { fileCacheFolder, pruneCache, uploadedSheetsFolder } from "./fileUrl";
import { runAll, testContext } from "./testSupport";

const DATED = "Tue, 02 Jan 2024 03:04:05 GMT";
let server: http.Server;
let base: string;
let dataDir: string;
const files = new Map<string, { body: Buffer; type: string; etag?: string }>();
const hits = new Map<string, { total: number; notModified: number }>();

function count(pathname: string, notModified: boolean) {
  const entry = hits.get(pathname) ?? { total: 0, notModified: 0 };
  entry.total += 1;
  if (notModified) entry.notModified += 1;
  hits.set(pathname, entry);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "sightline-files-"));
  files.set("/people.csv", {
    body: Buffer.from("id,name,score,joined\n1,Ada,9.5,2024-01-02\n2,Grace,7,2024-03-04\n"),
    type: "text/csv",
    etag: '"v1"',
  });
  files.set("/people.tsv", {
    body: Buffer.from("id\tname\n1\tAda\n2\tGrace\n"),
    type: "text/tab-separated-values",
  });
  files.set("/semi.txt", { body: Buffer.from("a;b\n1;x\n2;y\n"), type: "text/plain" });
  files.set("/rows.json", {
    body: Buffer.from(
      JSON.stringify([
        { id: 1, ok: true },
        { id: 2, ok: false },
      ]),
    ),
    type: "application/json",
  });
  files.set("/rows.jsonl", {
    body: Buffer.from('{"id":1,"at":"2024-05-06 07:08:09"}\n{"id":2,"at":"2024-05-07 00:00:00"}\n'),
    type: "application/x-ndjson",
  });
  const many = ["n,label"];
  for (let i = 0; i < 100_000; i += 1) many.push(`${i},row ${i}`);
  files.set("/many.csv", { body: Buffer.from(many.join("\n") + "\n"), type: "text/csv" });
  files.set("/old.xls", { body: Buffer.from("\xd0\xcf"), type: "application/vnd.ms-excel" });
  files.set("/broken.json", { body: Buffer.from("[{"), type: "application/json" });
  files.set("/big.csv", { body: Buffer.alloc(2 * 1024 * 1024, "a\n"), type: "text/csv" });

  const parquetDir = mkdtempSync(path.join(os.tmpdir(), "sightline-parquet-"));
  const parquetFile = path.join(parquetDir, "t.parquet");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT range AS n, range * 1.5 AS x, 'r' || range AS label FROM range(3)) TO '${parquetFile}' (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  files.set("/t.parquet", { body: readFileSync(parquetFile), type: "application/octet-stream" });
  rmSync(parquetDir, { recursive: true, force: true });

  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("First").addRows([
    ["city", "people"],
    ["Oslo", 700000],
  ]);
  workbook.addWorksheet("Empty");
  workbook.addWorksheet("Second").addRows([
    ["day", "amount", "note"],
    [new Date(Date.UTC(2024, 0, 2)), 1.25, "a, b"],
    [new Date(Date.UTC(2024, 0, 3)), 2, null],
  ]);
  files.set("/book.xlsx", {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  });

  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/to-internal") {
      res.writeHead(302, { location: "http://10.0.0.1/people.csv" });
      return res.end();
    }
    if (url.pathname === "/slow.csv") return void setTimeout(() => res.end("a\n1\n"), 10_000);
    if (url.pathname === "/dated.csv") {
      const notModified = req.headers["if-modified-since"] === DATED;
      count(url.pathname, notModified);
      res.statusCode = notModified ? 304 : 200;
      res.setHeader("last-modified", DATED);
      return res.end(notModified ? undefined : "a\n1\n");
    }
    if (url.pathname === "/export") {
      count(url.pathname, false);
      res.writeHead(302, { location: "/people.csv" });
      return res.end();
    }
    const file = files.get(url.pathname);
    if (!file) {
      res.statusCode = 404;
      return res.end("missing");
    }
    const notModified = file.etag !== undefined && req.headers["if-none-match"] === file.etag;
    count(url.pathname, notModified);
    if (notModified) {
      res.statusCode = 304;
      return res.end();
    }
    res.setHeader("content-type", file.type);
    if (file.etag) res.setHeader("etag", file.etag);
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

function context() {
  return testContext({
    outbound: createOutboundClient({ allowedRanges: ["127.0.0.0/8"] }),
    cacheDir: path.join(dataDir, "url-files"),
  });
}

const types = (columns: { name: string; type: unknown }[]) => columns.map((c) => [c.name, c.type]);

describe("files by URL (csv and excel types)", () => {
  it("reads a CSV with DuckDB's detected types", async () => {
    const { columns, rows } = await runAll(csvRunner.run({}, `url: ${base}/people.csv`, context()));
    expect(types(columns)).toEqual([
      ["id", "integer"],
      ["name", "string"],
      ["score", "float"],
      ["joined", "date"],
    ]);
    expect(rows).toEqual([
      [1, "Ada", 9.5, "2024-01-02"],
      [2, "Grace", 7, "2024-03-04"],
    ]);
  });

  it("revalidates the cached copy with If-None-Match and reuses it on 304", async () => {
    const before = { ...(hits.get("/people.csv") ?? { total: 0, notModified: 0 }) };
    await runAll(csvRunner.run({}, `url: ${base}/people.csv`, context()));
    const { rows } = await runAll(csvRunner.run({}, `url: ${base}/people.csv`, context()));
    const after = hits.get("/people.csv")!;
    expect(after.total - before.total).toBe(2);
    expect(after.notModified - before.notModified).toBe(2);
    expect(rows).toHaveLength(2);
  });

  it("revalidates by Last-Modified when there is no ETag", async () => {
    await runAll(csvRunner.run({}, `url: ${base}/dated.csv`, context()));
    const { rows } = await runAll(csvRunner.run({}, `url: ${base}/dated.csv`, context()));
    expect(rows).toEqual([[1]]);
    expect(hits.get("/dated.csv")).toEqual({ total: 2, notModified: 1 });
  });

  it("refuses a redirect to an internal address, stops at the time limit and on cancel", async () => {
    await expect(csvRunner.run({}, `url: ${base}/to-internal`, context())).rejects.toThrow(
      /10\.0\.0\.1/,
    );
    const started = Date.now();
    await expect(
      csvRunner.run({}, `url: ${base}/slow.csv`, { ...context(), timeoutMs: 300 }),
    ).rejects.toThrow(/time limit/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(
      csvRunner.run({}, `url: ${base}/slow.csv`, { ...context(), signal: controller.signal }),
    ).rejects.toThrow("Query cancelled by user.");
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it("follows a redirect (an 'export as CSV' link)", async () => {
    const { rows } = await runAll(csvRunner.run({}, `url: ${base}/export`, context()));
    expect(rows.map((r) => r[1])).toEqual(["Ada", "Grace"]);
    expect(hits.get("/export")?.total).toBeGreaterThanOrEqual(1);
  });

  it("reads TSV, a separator, no header and names", async () => {
    const tsv = await runAll(csvRunner.run({}, `url: ${base}/people.tsv`, context()));
    expect(tsv.rows).toEqual([
      [1, "Ada"],
      [2, "Grace"],
    ]);
    const semi = await runAll(
      csvRunner.run(
        {},
        `url: ${base}/semi.txt\nsep: ";"\nheader: None\nnames: [first, second]\nskiprows: 1`,
        context(),
      ),
    );
    expect(types(semi.columns)).toEqual([
      ["first", "integer"],
      ["second", "string"],
    ]);
    expect(semi.rows).toEqual([
      [1, "x"],
      [2, "y"],
    ]);
  });

  it("reads JSON, JSON lines and Parquet", async () => {
    const json = await runAll(csvRunner.run({}, `url: ${base}/rows.json`, context()));
    expect(types(json.columns)).toEqual([
      ["id", "integer"],
      ["ok", "boolean"],
    ]);
    const jsonl = await runAll(csvRunner.run({}, `url: ${base}/rows.jsonl`, context()));
    expect(types(jsonl.columns)).toEqual([
      ["id", "integer"],
      ["at", "datetime"],
    ]);
    const parquet = await runAll(csvRunner.run({}, `url: ${base}/t.parquet`, context()));
    expect(types(parquet.columns)).toEqual([
      ["n", "integer"],
      ["x", "float"],
      ["label", "string"],
    ]);
    expect(parquet.rows[2]).toEqual([2, 3, "r2"]);
  });

  it("reads XLSX sheets by name and position", async () => {
    const first = await runAll(excelRunner.run({}, `url: ${base}/book.xlsx`, context()));
    expect(first.rows).toEqual([["Oslo", 700000]]);
    const second = await runAll(
      excelRunner.run({}, `url: ${base}/book.xlsx\nsheet_name: Second`, context()),
    );
    expect(types(second.columns)).toEqual([
      ["day", "datetime"],
      ["amount", "float"],
      ["note", "string"],
    ]);
    expect(second.rows[0].slice(1)).toEqual([1.25, "a, b"]);
    await expect(
      excelRunner.run({}, `url: ${base}/book.xlsx\nsheet_name: 5`, context()),
    ).rejects.toThrow("Sheet number 5 not found. Sheets: First, Empty, Second.");
    await expect(
      excelRunner.run({}, `url: ${base}/book.xlsx\nsheet_name: Empty`, context()),
    ).rejects.toThrow("Sheet 'Empty' is empty.");
  });

  it("reads XLSX cells as DuckDB values: skiprows, sheet by number, dates, formulas, rich text", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Cover").addRows([["nothing here"]]);
    workbook
      .addWorksheet("Data")
      .addRows([
        ["Report of January"],
        ["at", "total", "double", "label"],
        [new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), 1.5, { formula: "B3*2", result: 3 }, "x"],
        [
          new Date(Date.UTC(2024, 0, 3)),
          2,
          { formula: "B4*2", result: 4 },
          { richText: [{ text: "bold " }, { text: "plain" }] },
        ],
      ]);
    files.set("/mixed.xlsx", {
      body: Buffer.from(await workbook.xlsx.writeBuffer()),
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
    const { columns, rows } = await runAll(
      excelRunner.run({}, `url: ${base}/mixed.xlsx\nsheet_name: 1\nskiprows: 1`, context()),
    );
    expect(types(columns)).toEqual([
      ["at", "datetime"],
      ["total", "float"],
      ["double", "integer"],
      ["label", "string"],
    ]);
    expect(rows).toEqual([
      ["2024-01-02T03:04:05", 1.5, 3, "x"],
      ["2024-01-03T00:00:00", 2, 4, "bold plain"],
    ]);
    files.set("/fake.xlsx", { body: Buffer.from("id,name\n1,a\n"), type: "text/plain" });
    await expect(excelRunner.run({}, `url: ${base}/fake.xlsx`, context())).rejects.toThrow(
      "The file is not a readable XLSX workbook: ",
    );
    await expect(
      excelRunner.run({}, `url: ${base}/mixed.xlsx\nsheet_name: Other`, context()),
    ).rejects.toThrow("Sheet 'Other' not found. Sheets: Cover, Data.");
  });

  it("converts an unchanged workbook's sheet once, and again when the workbook changes", async () => {
    const book = async (city: string) => {
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet("Only").addRows([["city"], [city]]);
      return Buffer.from(await workbook.xlsx.writeBuffer());
    };
    const type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    files.set("/changing.xlsx", { body: await book("Oslo"), type });
    const folder = path.join(dataDir, "url-files");
    const copies = () =>
      readdirSync(folder)
        .filter((name) => name.endsWith(".csv"))
        .map((name) => path.join(folder, name));
    const run = () => runAll(excelRunner.run({}, `url: ${base}/changing.xlsx`, context()));
    const before = new Set(copies());

    expect((await run()).rows).toEqual([["Oslo"]]);
    const made = copies().filter((copy) => !before.has(copy));
    expect(made).toHaveLength(1);
    const first = statSync(made[0]!);
    // Fetched again (the server sends no validators), the same workbook is not converted again.
    expect((await run()).rows).toEqual([["Oslo"]]);
    expect(hits.get("/changing.xlsx")?.total).toBe(2);
    // The same file (a conversion writes a new one and renames it), marked as used again.
    const second = statSync(made[0]!);
    expect(second.ino).toBe(first.ino);
    expect(second.mtimeMs).toBeGreaterThanOrEqual(first.mtimeMs);

    files.set("/changing.xlsx", { body: await book("Bergen"), type });
    expect((await run()).rows).toEqual([["Bergen"]]);
    const now = copies().filter((copy) => !before.has(copy));
    expect(now).toHaveLength(2);
    const [fresh] = now.filter((copy) => copy !== made[0]);
    // The old copy stays while a run may still read it, and goes once unused for a while.
    const unused = new Date(Date.now() - KEEP_REPLACED_COPY_MS - 1000);
    utimesSync(made[0]!, unused, unused);
    expect((await run()).rows).toEqual([["Bergen"]]);
    expect(copies().filter((copy) => !before.has(copy))).toEqual([fresh]);
  });

  it("streams 100,000 rows in batches", async () => {
    const { columns, rows, batches } = await runAll(
      csvRunner.run({}, `url: ${base}/many.csv`, context()),
    );
    expect(types(columns)).toEqual([
      ["n", "integer"],
      ["label", "string"],
    ]);
    expect(rows).toHaveLength(100_000);
    expect(rows[99_999]).toEqual([99_999, "row 99999"]);
    expect(batches).toBeGreaterThan(1);
  });

  it("runs SQL over the table file, reads only", async () => {
    const { rows } = await runAll(
      csvRunner.run(
        {},
        `url: ${base}/people.csv\nquery: SELECT count(*) AS n, max(score) AS top FROM file`,
        context(),
      ),
    );
    expect(rows).toEqual([[2, 9.5]]);
    await expect(
      csvRunner.run({}, `url: ${base}/people.csv\nquery: COPY file TO '/tmp/x.csv'`, context()),
    ).rejects.toThrow(/read-only/);
    // The database may read the fetched file and nothing else: no other file, no URL.
    for (const source of ["read_text('/etc/hostname')", "read_csv('http://example.com/x.csv')"]) {
      await expect(
        csvRunner.run({}, `url: ${base}/people.csv\nquery: SELECT * FROM ${source}`, context()),
      ).rejects.toThrow(/Permission Error/);
    }
  });

  it("says why a file cannot be had", async () => {
    await expect(csvRunner.run({}, `url: ${base}/nothing.csv`, context())).rejects.toThrow(
      /answered HTTP 404/,
    );
    await expect(
      csvRunner.run({ max_file_mb: 1 }, `url: ${base}/big.csv`, context()),
    ).rejects.toThrow(/larger than the limit of 1/);
    await expect(
      csvRunner.run(
        {},
        `url: ${base}/people.csv`,
        testContext({ cacheDir: path.join(dataDir, "url-files") }),
      ),
    ).rejects.toThrow(/127\.0\.0\.1/);
    const broken = await csvRunner.run({}, `url: ${base}/broken.json`, context()).catch((e) => e);
    expect(broken.message).toMatch(/^The file could not be read as JSON: /);
    expect(broken.message).toContain(`${base}/broken.json`);
    expect(broken.message).not.toContain(dataDir);
    expect(broken.message).not.toContain("CREATE VIEW");
    await expect(csvRunner.run({}, `url: ${base}/old.xls`, context())).rejects.toThrow(XLS_REFUSED);
    await expect(csvRunner.run({}, "url: [unclosed", context())).rejects.toThrow(/not valid YAML/);
    await expect(csvRunner.run({}, "sep: ','", context())).rejects.toThrow(
      "Query must include 'url' option.",
    );
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      csvRunner.run({}, `url: http://127.0.0.1:${port}/x.csv`, context()),
    ).rejects.toThrow(/failed/);
  });

  it("removes cache entries unused for a week", async () => {
    const folder = fileCacheFolder(context());
    const old = path.join(folder, "0000.json");
    writeFileSync(old, "{}");
    writeFileSync(path.join(folder, "0000.data"), "x");
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    utimesSync(old, weekAgo, weekAgo);
    // Copies of uploaded workbooks' sheets: one unused for a week (a deleted upload's), one in use.
    const sheets = uploadedSheetsFolder(context());
    mkdirSync(sheets, { recursive: true });
    const [unusedCopy, usedCopy] = ["a-1-x.csv", "b-2-y.csv"].map((n) => path.join(sheets, n));
    for (const copy of [unusedCopy, usedCopy]) writeFileSync(copy, "x\n1\n");
    utimesSync(unusedCopy, weekAgo, weekAgo);
    await runAll(csvRunner.run({}, `url: ${base}/people.csv`, context()));
    await pruneCache(folder);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(path.join(folder, "0000.data"))).toBe(false);
    expect([existsSync(unusedCopy), existsSync(usedCopy)]).toEqual([false, true]);
    const { rows } = await runAll(csvRunner.run({}, `url: ${base}/people.csv`, context()));
    expect(rows).toHaveLength(2);
  });

  it("parses Redash's YAML options", () => {
    expect(() => parseFileQuery(`url: x\nbogus: 1`)).toThrow(/Unknown option 'bogus'/);
    expect(parseFileQuery(`url: x\nformat: ndjson`).format).toBe("jsonl");
    expect(() => parseFileQuery(`url: x\nformat: xls`)).toThrow(XLS_REFUSED);
    expect(parseFileQuery(`url: x\nparse_dates: [day]\nheader: null`).header).toBe(false);
  });
});
