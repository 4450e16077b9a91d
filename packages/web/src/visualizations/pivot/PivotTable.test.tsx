// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { getPivotOptions, pivot } from "./pivot";
import { PivotTable } from "./PivotTable";

const records = [
  { category: "Books", status: "shipped", year: "2024" },
  { category: "Books", status: "returned", year: "2024" },
  { category: "Toys", status: "shipped", year: "2025" },
];

afterEach(cleanup);

/** The table as a grid of cell texts, each spanned cell repeated over the slots it covers. */
function grid(table: HTMLTableElement): string[][] {
  const out: string[][] = [];
  [...table.rows].forEach((row, r) => {
    out[r] ??= [];
    let c = 0;
    for (const cell of [...row.cells]) {
      while (out[r][c] !== undefined) c++;
      for (let dr = 0; dr < cell.rowSpan; dr++)
        for (let dc = 0; dc < cell.colSpan; dc++) (out[r + dr] ??= [])[c + dc] = cell.textContent!;
      c += cell.colSpan;
    }
  });
  return out;
}

function drawn(options: Record<string, unknown>): string[][] {
  const o = getPivotOptions(options);
  render(<PivotTable result={pivot(records, o)} options={o} />);
  return grid(screen.getByTestId("pivot-table") as HTMLTableElement);
}

describe("PivotTable", () => {
  it("puts the row keys under the column attribute's name: no empty column", () => {
    expect(drawn({ rows: ["category"], cols: ["status"] })).toEqual([
      ["", "status", "returned", "shipped", "Totals"],
      ["category", "category", "returned", "shipped", "Totals"],
      ["Books", "Books", "1", "1", "2"],
      ["Toys", "Toys", "", "1", "1"],
      ["Totals", "Totals", "1", "2", "3"],
    ]);
  });
  it("lines up two levels of rows and columns", () => {
    const g = drawn({ rows: ["category", "year"], cols: ["year", "status"] });
    expect(new Set(g.map((row) => row.length)).size).toBe(1);
    expect(g[0].slice(0, 3)).toEqual(["", "", "year"]);
    expect(g[1].slice(0, 3)).toEqual(["", "", "status"]);
    expect(g[2].slice(0, 3)).toEqual(["category", "year", "year"]);
    expect(g[3].slice(0, 3)).toEqual(["Books", "2024", "2024"]);
  });
  it("draws rows only, columns only and neither", () => {
    expect(drawn({ rows: ["category"] })).toEqual([
      ["category", "Totals"],
      ["Books", "2"],
      ["Toys", "1"],
    ]);
    cleanup();
    expect(drawn({ cols: ["status"] })).toEqual([
      ["status", "returned", "shipped", "Totals"],
      ["", "1", "2", "3"],
      ["Totals", "1", "2", "3"],
    ]);
    cleanup();
    expect(drawn({})).toEqual([["Totals", "3"]]);
  });
});
