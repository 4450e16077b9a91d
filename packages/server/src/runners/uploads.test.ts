// The Uploaded files runner over a real folder: Parquet, XLSX (first sheet) and JSON files as
// tables, same-stem files, a broken file named in its error, the literal rewriting, the schema.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEP_REPLACED_COPY_MS } from "./fileSheets";
import { checkUploadName, tableNames } from "./uploadFiles";
import { uploadsRunner } from "./uploads";
import { withFilePaths } from "./uploadSql";
import { runAll, testContext } from "./testSupport";

let root: string;
let folder: string;
const ctx = () => testContext({ uploadsDir: folder, cacheDir: path.join(root, "cache") });

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "sightline-uploads-"));
  folder = path.join(root, "uploads", "7");
  const duck = await DuckDBInstance.create(":memory:");
  const connection = await duck.connect();
  mkdirSync(folder, { recursive: true });
  await connection.run(
    `COPY (SELECT range AS n, range * 2 AS twice FROM range(1000)) TO '${folder}/numbers.parquet' (FORMAT parquet)`,
  );
  connection.closeSync();
  duck.closeSync();
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Plan");
  sheet.addRow(["month", "target"]);
  sheet.addRow(["2024-01", 100]);
  sheet.addRow(["2024-02", 150]);
  book.addWorksheet("Other").addRow(["x"]);
  await book.xlsx.writeFile(path.join(folder, "plan.xlsx"));
  writeFileSync(
    path.join(folder, "people.json"),
    '[{"name":"Ada","age":36},{"name":"Bo","age":7}]',
  );
  writeFileSync(path.join(folder, "people.csv"), "name\nCy\n");
  writeFileSync(path.join(folder, "broken.parquet"), "not parquet at all");
  writeFileSync(path.join(folder, ".upload-x.tmp"), "a\n1\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("uploads runner", () => {
  it("reads Parquet and XLSX files as tables", async () => {
    const parquet = await runAll(
      uploadsRunner.run({}, "SELECT count(*) AS n, max(twice) AS top FROM numbers", ctx()),
    );
    expect(parquet.rows).toEqual([[1000, 1998]]);
    const xlsx = await runAll(
      uploadsRunner.run({}, "SELECT month, target FROM plan ORDER BY month", ctx()),
    );
    expect(xlsx.columns.map((c) => c.type)).toEqual(["string", "integer"]);
    expect(xlsx.rows).toEqual([
      ["2024-01", 100],
      ["2024-02", 150],
    ]);
    // By name too: the XLSX file's name reads its sheet's copy.
    const byName = await runAll(
      uploadsRunner.run({}, "SELECT sum(target) FROM 'plan.xlsx'", ctx()),
    );
    expect(byName.rows).toEqual([[250]]);
  });

  it("reads a replaced XLSX file afresh and drops the old sheet's copy", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("Plan");
    sheet.addRow(["month", "target"]);
    sheet.addRow(["2024-03", 175]);
    const file = path.join(folder, "plan.xlsx");
    await book.xlsx.writeFile(file);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    // The old copy is dropped once no run may still be about to read it (fileSheets.ts).
    const copies = path.join(root, "cache", "uploaded-sheets");
    const unused = new Date(Date.now() - KEEP_REPLACED_COPY_MS - 1000);
    for (const name of readdirSync(copies)) utimesSync(path.join(copies, name), unused, unused);
    const fresh = await runAll(uploadsRunner.run({}, "SELECT sum(target) FROM plan", ctx()));
    expect(fresh.rows).toEqual([[175]]);
    expect(readdirSync(copies)).toHaveLength(1);
  });

  it("names files that share a stem by their whole name", async () => {
    const json = await runAll(
      uploadsRunner.run({}, `SELECT name FROM "people.json" ORDER BY age`, ctx()),
    );
    expect(json.rows).toEqual([["Bo"], ["Ada"]]);
    const csv = await runAll(uploadsRunner.run({}, `SELECT name FROM "people.csv"`, ctx()));
    expect(csv.rows).toEqual([["Cy"]]);
    expect(tableNames([{ name: "a.csv" }, { name: "A.json" }, { name: "b.csv" }])).toEqual(
      new Map([
        ["a.csv", "a.csv"],
        ["A.json", "A.json"],
        ["b.csv", "b"],
      ]),
    );
  });

  it("names a broken file in its error, without the folder's path", async () => {
    const error = await uploadsRunner.run({}, "SELECT * FROM broken", ctx()).catch((e) => e);
    expect(error.message).toContain("The file broken.parquet could not be read as PARQUET");
    expect(error.message).not.toContain(folder);
  });

  it("lists the files as tables with their columns, a broken one without columns", async () => {
    const schema = await uploadsRunner.getSchema({}, ctx());
    expect(schema.map((t) => t.name)).toEqual([
      "broken",
      "numbers",
      "people.csv",
      "people.json",
      "plan",
    ]);
    expect(schema.find((t) => t.name === "numbers")!.columns).toEqual([
      { name: "n", type: "BIGINT" },
      { name: "twice", type: "BIGINT" },
    ]);
    expect(schema.find((t) => t.name === "broken")!.columns).toEqual([]);
  });

  it("refuses to run without the data source's folder", async () => {
    await expect(uploadsRunner.run({}, "SELECT 1", testContext())).rejects.toThrow(
      "cannot be reached here",
    );
  });

  it("gives file-name literals the folder, and nothing else", () => {
    const resolve = (name: string) => `/f/${name}`;
    const ext = [".csv"];
    expect(withFilePaths("SELECT * FROM 'a.csv' -- 'b.csv'\n", ext, resolve)).toBe(
      "SELECT * FROM '/f/a.csv' -- 'b.csv'\n",
    );
    expect(withFilePaths(`SELECT 'it''s', "x.csv" FROM '*.csv'`, ext, resolve)).toBe(
      `SELECT 'it''s', "x.csv" FROM '/f/*.csv'`,
    );
    for (const left of ["'../a.csv'", "'/etc/a.csv'", "'a.txt'", "' a.csv'", "'.a.csv'"]) {
      expect(withFilePaths(`SELECT * FROM ${left}`, ext, resolve)).toBe(`SELECT * FROM ${left}`);
    }
    expect(withFilePaths("SELECT /* 'a.csv' */ 1", ext, resolve)).toBe("SELECT /* 'a.csv' */ 1");
  });

  it("accepts plain names only", () => {
    expect(checkUploadName(" Sales 2024 (v2).csv ")).toBe("Sales 2024 (v2).csv");
    expect(checkUploadName("Données.parquet")).toBe("Données.parquet");
    // As macOS spells it (e + combining accent): one name, the composed one.
    expect(checkUploadName("Donne\u0301es.parquet")).toBe("Données.parquet");
    // 200 characters at most, and 255 bytes (what a file system stores): 150 é are 300 bytes.
    expect(checkUploadName(`${"a".repeat(196)}.csv`)).toHaveLength(200);
    expect(() => checkUploadName(`${"a".repeat(197)}.csv`)).toThrow("longer than 200");
    expect(checkUploadName(`${"é".repeat(125)}.csv`)).toHaveLength(129);
    expect(() => checkUploadName(`${"é".repeat(150)}.csv`)).toThrow("too long to store");
    for (const bad of ["", "a/b.csv", "..csv", ".env.csv", "a.exe", 'a".csv', "x\u0000.csv"]) {
      expect(() => checkUploadName(bad), bad).toThrow();
    }
  });
});
