import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEP_REPLACED_COPY_MS, sheetCopy, sheetToCsv } from "./fileSheets";

let dir: string;
let book: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "sightline-sheets-"));
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Notes").addRows([["title"], ["first"]]);
  const mixed = workbook.addWorksheet("Mixed");
  mixed.addRow(["a title line"]);
  mixed.addRow(["name", "at", "total", "formula", "rich"]);
  mixed.addRow([
    " padded",
    new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
    1.5,
    { formula: "C3*2", result: 3 },
    { richText: [{ text: "bold " }, { text: "plain" }] },
  ]);
  mixed.addRow([]); // an empty row in the middle
  mixed.addRow(['say "hi"', new Date(Date.UTC(2024, 0, 3)), 2]); // shorter than the widest
  book = path.join(dir, "book.xlsx");
  await workbook.xlsx.writeFile(book);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function csvOf(sheet: string | number | undefined, skipRows = 0): Promise<string> {
  const out = path.join(dir, "out.csv");
  await sheetToCsv(book, sheet, out, skipRows);
  return readFileSync(out, "utf8");
}

describe("XLSX sheets read as CSV", () => {
  it("writes cells as text: dates as timestamps, formulas as results, rows padded", async () => {
    expect(await csvOf("Mixed", 1)).toBe(
      [
        "name,at,total,formula,rich",
        '" padded",2024-01-02 03:04:05.678,1.5,3,bold plain',
        ",,,,",
        '"say ""hi""",2024-01-03 00:00:00,2,,',
        "",
      ].join("\n"),
    );
  });

  it("picks a sheet by name or by its 0-based position, the first by default", async () => {
    expect(await csvOf(undefined)).toBe("title\nfirst\n");
    expect(await csvOf(0)).toBe("title\nfirst\n");
    expect((await csvOf(1)).split("\n")[0]).toBe("a title line,,,,");
    await expect(csvOf(2)).rejects.toThrow("Sheet number 2 not found. Sheets: Notes, Mixed.");
    await expect(csvOf("Other")).rejects.toThrow("Sheet 'Other' not found. Sheets: Notes, Mixed.");
  });

  it("reads every sheet of a workbook of many sheets (exceljs's streaming reader loses some)", async () => {
    const many = new ExcelJS.Workbook();
    for (let i = 0; i < 8; i += 1) many.addWorksheet(`S${i}`).addRows([["n"], [i]]);
    const manyPath = path.join(dir, "many.xlsx");
    await many.xlsx.writeFile(manyPath);
    const out = path.join(dir, "many.csv");
    for (const choice of ["S0", 3, "S7", undefined]) {
      await sheetToCsv(manyPath, choice, out, 0);
      const expected =
        choice === undefined ? 0 : typeof choice === "number" ? choice : Number(choice.slice(1));
      expect(readFileSync(out, "utf8")).toBe(`n\n${expected}\n`);
    }
    await expect(sheetToCsv(manyPath, "S8", out, 0)).rejects.toThrow(
      "Sheet 'S8' not found. Sheets: S0, S1, S2, S3, S4, S5, S6, S7.",
    );
  });

  it("says when the file is not a workbook", async () => {
    const notBook = path.join(dir, "not.xlsx");
    writeFileSync(notBook, "id,name\n1,a\n");
    await expect(sheetToCsv(notBook, 0, path.join(dir, "x.csv"), 0)).rejects.toThrow(
      "The file is not a readable XLSX workbook",
    );
  });

  it("keeps one copy per sheet of the workbook's current content", async () => {
    const copies = path.join(dir, "copies");
    const first = await sheetCopy(book, "Notes", 0, copies, "book-");
    const other = await sheetCopy(book, "Mixed", 1, copies, "book-");
    expect(await sheetCopy(book, "Notes", 0, copies, "book-")).toBe(first);
    expect(readdirSync(copies).sort()).toEqual([path.basename(first), path.basename(other)].sort());
    const changed = new ExcelJS.Workbook();
    changed.addWorksheet("Notes").addRows([["title"], ["second"]]);
    await changed.xlsx.writeFile(book);
    const fresh = await sheetCopy(book, "Notes", 0, copies, "book-");
    expect(readFileSync(fresh, "utf8")).toBe("title\nsecond\n");
    // A run given the old copy's path just now may still open it: it stays a while.
    expect(readFileSync(first, "utf8")).toBe("title\nfirst\n");
    // Once unused for longer than that, the old content's copies are gone.
    const earlier = new Date(Date.now() - KEEP_REPLACED_COPY_MS - 1000);
    for (const old of [first, other]) utimesSync(old, earlier, earlier);
    expect(await sheetCopy(book, "Notes", 0, copies, "book-")).toBe(fresh);
    expect(readdirSync(copies)).toEqual([path.basename(fresh)]);
  });

  it("keeps using an older copy while its runs last, then lets it go", async () => {
    const copies = path.join(dir, "in-use");
    // Each content's bytes are made once: exceljs writes the time into a workbook, so making
    // "one" again a second later would be another version.
    const bytes = new Map<string, Buffer>();
    for (const text of ["one", "two"]) {
      const made = new ExcelJS.Workbook();
      made.addWorksheet("Notes").addRows([["title"], [text]]);
      bytes.set(text, Buffer.from(await made.xlsx.writeBuffer()));
    }
    const workbook = (text: string) => writeFileSync(book, bytes.get(text)!);
    workbook("one");
    const one = await sheetCopy(book, "Notes", 0, copies, "book-");
    const aged = new Date(Date.now() - KEEP_REPLACED_COPY_MS - 1000);
    utimesSync(one, aged, aged);
    workbook("two");
    // The workbook changes back, so "one" is used again just before "two" is converted.
    workbook("one");
    expect(await sheetCopy(book, "Notes", 0, copies, "book-")).toBe(one);
    workbook("two");
    const two = await sheetCopy(book, "Notes", 0, copies, "book-");
    expect(readdirSync(copies).sort()).toEqual([path.basename(one), path.basename(two)].sort());
  });
});
