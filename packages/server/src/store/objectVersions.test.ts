import { describe, expect, it } from "vitest";
import { changedFields, compressSnapshot, decompressSnapshot } from "./objectVersions";

describe("changedFields", () => {
  it("names every field a new object sets, and only the changed ones of a save", () => {
    expect(
      changedFields(null, { name: "A", description: null, tags: [], options: {}, query: "x" }),
    ).toEqual(["name", "query"]);
    expect(
      changedFields(
        { name: "A", options: { parameters: [] }, visualizations: [{ id: 1, options: {} }] },
        { name: "A", options: { parameters: [] }, visualizations: [{ id: 1, options: { a: 1 } }] },
      ),
    ).toEqual(["visualizations"]);
    expect(changedFields({ name: "A" }, { name: "A" })).toEqual([]);
  });
});

describe("snapshots", () => {
  it("round-trip through deflate, smaller than their JSON", () => {
    const snapshot = { query: "SELECT 1;\n".repeat(200), tags: ["a"], schedule: null };
    const stored = compressSnapshot(snapshot);
    expect(stored.length).toBeLessThan(JSON.stringify(snapshot).length / 10);
    expect(decompressSnapshot(stored)).toEqual(snapshot);
  });
});
