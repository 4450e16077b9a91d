import { describe, expect, it } from "vitest";
import { DEFAULT_FORMATS } from "../types";
import {
  cellText,
  highlightLinks,
  imageParts,
  linkParts,
  nextSort,
  pageOf,
  safeUrl,
  searchRows,
  sortRows,
} from "./cells";
import { buildColumns, columnTitle, getTableOptions } from "./columns";

const columns = [
  { name: "id", type: "integer" },
  { name: "country::filter", type: "string" },
  { name: "at", type: "datetime" },
  { name: "ok", type: "boolean" },
];
const ctx = { nullValue: "null", tableCellMaxJSONSize: 50000 };

describe("table columns", () => {
  it("builds defaults from the result", () => {
    const [id, country, at, ok] = buildColumns(undefined, columns, DEFAULT_FORMATS);
    expect(id).toMatchObject({
      displayAs: "number",
      alignContent: "right",
      numberFormat: "0,0",
      title: "id",
      order: 100000,
    });
    expect(country).toMatchObject({ displayAs: "string", alignContent: "left", title: "country" });
    expect(at).toMatchObject({ displayAs: "datetime", dateTimeFormat: "YYYY-MM-DD HH:mm" });
    expect(ok.displayAs).toBe("boolean");
    expect(columnTitle("::x")).toBe("x");
  });
  it("lays stored settings over defaults, drops stale columns and keeps a user order", () => {
    const stored = [
      { name: "gone", title: "G" },
      { name: "at", title: "When", visible: false },
      { name: "id" },
    ];
    const built = buildColumns(stored, columns, DEFAULT_FORMATS);
    expect(built.map((c) => c.name)).toEqual(["at", "id", "country::filter", "ok"]);
    expect(built[0]).toMatchObject({ title: "When", visible: false });
  });
  it("drops paginationSize and keeps unknown keys", () => {
    const o = getTableOptions({ paginationSize: "small", foo: 1 }, columns, DEFAULT_FORMATS);
    expect(o).not.toHaveProperty("paginationSize");
    expect(o.foo).toBe(1);
    expect(o.itemsPerPage).toBe(25);
  });
});

describe("table cells", () => {
  const [id, , at, ok] = buildColumns(undefined, columns, DEFAULT_FORMATS);
  it("formats numbers, dates, booleans and nulls", () => {
    expect(cellText(1234, id, ctx)).toBe("1,234");
    expect(cellText(null, id, ctx)).toBe("null");
    expect(cellText(new Date(Date.UTC(2024, 0, 2, 3, 4)), at, ctx)).toBe("2024-01-02 03:04");
    expect(cellText("garbage", at, ctx)).toBe("garbage");
    expect(cellText(true, ok, ctx)).toBe("true");
    expect(cellText(false, { ...ok, booleanValues: ["Yes"] }, ctx)).toBe("");
  });
  it("fills link templates and refuses script URLs", () => {
    const link = linkParts(
      "42",
      { id: 42 },
      { ...id, linkUrlTemplate: "/q/{{ @ }}?i={{ id }}", linkTextTemplate: "" },
    );
    expect(link).toMatchObject({ href: "/q/42?i=42", text: "/q/42?i=42" });
    expect(safeUrl("javascript:alert(1)")).toBe("");
    expect(safeUrl("https://x.org")).toBe("https://x.org");
    expect(highlightLinks("see https://x.org/a now")).toContain(
      '<a href="https://x.org/a" target="_blank"',
    );
  });
  it("refuses script URLs hidden by whitespace and control characters, as browsers read them", () => {
    for (const url of [
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "java\rscript:alert(1)",
      "\u0001javascript:alert(1)",
      "\u0000javascript:alert(1)",
      " \u001fJavaScript:alert(1)",
      "javascript\t:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "java\u0001script:alert(1)",
    ]) {
      expect(safeUrl(url), JSON.stringify(url)).toBe("");
    }
    const [column] = buildColumns(undefined, [{ name: "u", type: "string" }], DEFAULT_FORMATS);
    const tabbed = "java\tscript:alert(1)";
    expect(linkParts(tabbed, { u: tabbed }, column!).href).toBe("");
    const controlled = "\u0001javascript:alert(1)";
    expect(imageParts(controlled, { u: controlled }, column!).src).toBe("");
    // Ordinary addresses keep working, with the whitespace a browser would drop removed.
    expect(safeUrl(" https://x.org/a\tb \n")).toBe("https://x.org/ab");
    expect(safeUrl("mailto:a@x.org")).toBe("mailto:a@x.org");
    expect(safeUrl("/queries/1")).toBe("/queries/1");
  });
  it("sorts on raw values with nulls first, and cycles header clicks", () => {
    const rows = [{ a: 2 }, { a: null }, { a: 1 }];
    expect(sortRows(rows, [{ name: "a", direction: "ascend" }]).map((r) => r.a)).toEqual([
      null,
      1,
      2,
    ]);
    expect(sortRows(rows, [{ name: "a", direction: "descend" }]).map((r) => r.a)).toEqual([
      2,
      1,
      null,
    ]);
    let keys = nextSort([], "a", false);
    expect(keys).toEqual([{ name: "a", direction: "ascend" }]);
    keys = nextSort(keys, "a", false);
    expect(keys[0].direction).toBe("descend");
    expect(nextSort(keys, "a", false)).toEqual([]);
    expect(nextSort(keys, "b", true).map((k) => k.name)).toEqual(["a", "b"]);
  });
  it("searches formatted text of searchable columns", () => {
    const rows = [{ id: 1234 }, { id: 5 }];
    expect(searchRows(rows, "1,23", [id], ctx)).toEqual([{ id: 1234 }]);
  });
  it("sorts 100,000 rows", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ a: (i * 7919) % 100_000 }));
    const sorted = sortRows(rows, [{ name: "a", direction: "ascend" }]);
    expect(sorted.map((r) => r.a)).toEqual(Array.from({ length: 100_000 }, (_, i) => i));
  });
});

describe("table paging", () => {
  const rows = Array.from({ length: 53 }, (_, i) => i + 1);
  it("shows itemsPerPage rows a page", () => {
    expect(pageOf(rows, 1, 25)).toEqual({
      current: 1,
      pageCount: 3,
      pageSize: 25,
      pageRows: rows.slice(0, 25),
    });
    expect(pageOf(rows, 3, 25).pageRows).toEqual([51, 52, 53]);
  });
  it("moves back to the last page when there are fewer pages (search, filters)", () => {
    expect(pageOf(rows.slice(0, 7), 3, 5)).toMatchObject({ current: 2, pageRows: [6, 7] });
    expect(pageOf([], 4, 25)).toMatchObject({ current: 1, pageCount: 1, pageRows: [] });
  });
  it("reads odd page sizes as whole pages of at least one row", () => {
    expect(pageOf(rows, 2, 10.7).pageRows).toEqual(rows.slice(10, 20));
    expect(pageOf(rows, 1, 0).pageSize).toBe(1);
  });
  it("keeps only one page of 100,000 rows", () => {
    const big = Array.from({ length: 100_000 }, (_, i) => i);
    const last = pageOf(big, 4000, 25);
    expect(last.pageCount).toBe(4000);
    expect(last.pageRows).toHaveLength(25);
    expect(last.pageRows[24]).toBe(99_999);
  });
});
