import { describe, expect, it } from "vitest";
import { movedCell } from "./cellFocus";

describe("table cell focus", () => {
  const at = { row: 1, column: 1 };
  it("moves one cell with the arrows and to a row's ends with Home and End", () => {
    expect(movedCell("ArrowUp", at, 3, 3)).toEqual({ row: 0, column: 1 });
    expect(movedCell("ArrowDown", at, 3, 3)).toEqual({ row: 2, column: 1 });
    expect(movedCell("ArrowLeft", at, 3, 3)).toEqual({ row: 1, column: 0 });
    expect(movedCell("ArrowRight", at, 3, 3)).toEqual({ row: 1, column: 2 });
    expect(movedCell("Home", at, 3, 3)).toEqual({ row: 1, column: 0 });
    expect(movedCell("End", at, 3, 4)).toEqual({ row: 1, column: 3 });
  });

  it("stays inside the page at its edges and ignores other keys", () => {
    expect(movedCell("ArrowUp", { row: 0, column: 0 }, 3, 3)).toEqual({ row: 0, column: 0 });
    expect(movedCell("ArrowDown", { row: 2, column: 2 }, 3, 3)).toEqual({ row: 2, column: 2 });
    expect(movedCell("ArrowRight", { row: 2, column: 2 }, 3, 3)).toEqual({ row: 2, column: 2 });
    expect(movedCell("a", at, 3, 3)).toBeNull();
    expect(movedCell("Tab", at, 3, 3)).toBeNull();
  });
});
