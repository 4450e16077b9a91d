import { describe, expect, it } from "vitest";
import { rowCountText, truncationMessage } from "./display";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
const columns = [{ name: "i", type: "integer" as const }];

describe("truncationMessage", () => {
  it("says nothing about a whole result", () => {
    expect(truncationMessage({ columns, rows: rows(3) })).toBeNull();
  });

  it("says how many rows the result has when the display cap shortened the view", () => {
    expect(
      truncationMessage({ columns, rows: rows(1000), truncated: true, row_count: 400_000 }),
    ).toBe(
      "This result has 400,000 rows; the first 1,000 are shown here. Downloads contain all 400,000 rows.",
    );
  });

  it("says the stored result was cut at the stored-rows cap", () => {
    expect(
      truncationMessage({ columns, rows: rows(1500), truncated: true, stored_truncated: true }),
    ).toBe(
      "Result truncated to 1,500 rows: the query returned more, and results are cut at this many rows.",
    );
    expect(
      truncationMessage({
        columns,
        rows: rows(100),
        truncated: true,
        row_count: 3000,
        stored_truncated: true,
      }),
    ).toBe(
      "Showing the first 100 of the 3,000 rows kept: the query returned more, and results are cut at 3,000 rows. Downloads contain the 3,000 rows kept.",
    );
  });

  it("keeps Redash's text for a data source's own truncated flag", () => {
    expect(truncationMessage({ columns, rows: rows(2), truncated: true })).toBe(
      "Result truncated to 2 rows. Databricks may truncate query results that are unstably large.",
    );
  });
});

describe("rowCountText", () => {
  it("separates thousands", () => {
    expect(rowCountText(1)).toBe("1 Row");
    expect(rowCountText(100_000)).toBe("100,000 Rows");
  });
});
