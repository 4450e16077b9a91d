import { describe, expect, it } from "vitest";
import { moveFocus, reachableCounts } from "./chartKeyboard";

describe("moving through a chart's values with the keyboard", () => {
  it("counts the values of flat series only", () => {
    expect(
      reachableCounts([
        { type: "bar", data: [1, 2, 3] },
        { type: "sunburst", data: [{ children: [] }] },
        { type: "line" },
        { type: "pie", data: [{ name: "a", value: 1 }] },
      ]),
    ).toEqual([3, 0, 0, 1]);
    expect(reachableCounts(undefined)).toEqual([]);
  });

  it("starts at the first value of the first series with values, on any moving key", () => {
    const counts = [0, 4, 2];
    for (const key of ["ArrowRight", "ArrowUp", "End"])
      expect(moveFocus(key, null, counts)).toEqual({ seriesIndex: 1, dataIndex: 0 });
    expect(moveFocus("a", null, counts)).toBeNull();
    expect(moveFocus("ArrowRight", null, [0, 0])).toBeNull();
  });

  it("steps along a series within its ends; Home and End go to them", () => {
    const counts = [3];
    let at = moveFocus("ArrowRight", null, counts);
    at = moveFocus("ArrowRight", at, counts);
    at = moveFocus("ArrowRight", at, counts);
    at = moveFocus("ArrowRight", at, counts);
    expect(at).toEqual({ seriesIndex: 0, dataIndex: 2 });
    expect(moveFocus("Home", at, counts)).toEqual({ seriesIndex: 0, dataIndex: 0 });
    expect(moveFocus("ArrowLeft", { seriesIndex: 0, dataIndex: 0 }, counts)).toEqual({
      seriesIndex: 0,
      dataIndex: 0,
    });
    expect(moveFocus("End", { seriesIndex: 0, dataIndex: 0 }, counts)).toEqual({
      seriesIndex: 0,
      dataIndex: 2,
    });
  });

  it("moves between series, skipping those without values and keeping within the next one", () => {
    const counts = [5, 0, 2];
    const at = { seriesIndex: 0, dataIndex: 4 };
    expect(moveFocus("ArrowDown", at, counts)).toEqual({ seriesIndex: 2, dataIndex: 1 });
    expect(moveFocus("ArrowUp", { seriesIndex: 2, dataIndex: 1 }, counts)).toEqual({
      seriesIndex: 0,
      dataIndex: 1,
    });
    // At the last series Down stays.
    expect(moveFocus("ArrowDown", { seriesIndex: 2, dataIndex: 0 }, counts)).toEqual({
      seriesIndex: 2,
      dataIndex: 0,
    });
  });

  it("a series that shrank (new rows) is stepped from its end", () => {
    expect(moveFocus("ArrowLeft", { seriesIndex: 0, dataIndex: 9 }, [3])).toEqual({
      seriesIndex: 0,
      dataIndex: 1,
    });
  });
});
