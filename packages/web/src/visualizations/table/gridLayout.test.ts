import { describe, expect, it } from "vitest";
import { gridLayout } from "./gridLayout";

describe("gridLayout", () => {
  it("gives columns their least widths where there is room", () => {
    expect(gridLayout([false, true], 1000)).toEqual({
      template: "minmax(110px, 1fr) minmax(160px, 2fr)",
      minWidth: 290,
    });
  });

  it("shares a phone's width among a few columns instead of scrolling a few pixels", () => {
    expect(gridLayout([false, false, false, false], 316)).toEqual({
      template: "minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1fr)",
      minWidth: 0,
    });
  });

  it("scrolls sideways when the columns would be too narrow to read", () => {
    expect(gridLayout(Array<boolean>(8).fill(false), 316).minWidth).toBe(960);
    // Not measured yet: the least widths.
    expect(gridLayout([false, false, false, false], 0).minWidth).toBe(480);
  });
});
