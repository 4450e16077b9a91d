import { describe, expect, it } from "vitest";
import { buildSunburst, totalSize } from "../sunburst/sunburst";
import { buildWords, getWordCloudOptions } from "../wordcloud/wordcloud";
import { buildSankey } from "./sankey";

const cols = (names: string[]) => names.map((name) => ({ name, type: null }));

describe("sankey", () => {
  it("links stages in column-name order and sums values", () => {
    const g = buildSankey({
      columns: cols(["value", "stage2", "stage1"]),
      rows: [
        { stage1: "home", stage2: "cart", value: 3 },
        { stage1: "home", stage2: "cart", value: "2" },
        { stage1: "home", stage2: null, value: 1 },
      ],
    });
    expect(g.error).toBeNull();
    expect(g.links).toEqual([
      { source: "1:home", target: "2:cart", value: 5 },
      { source: "1:home", target: "2:Exit", value: 1 },
    ]);
  });
  it("explains what is wrong with the data", () => {
    expect(buildSankey({ columns: cols(["a", "b"]), rows: [] }).error).toContain("value");
    expect(
      buildSankey({
        columns: cols(["stage1", "stage2", "value"]),
        rows: [{ stage1: "a", stage2: "b", value: "lots" }],
      }).error,
    ).toContain("numbers");
  });
});

describe("sunburst", () => {
  it("builds a tree from table-format paths with exit children", () => {
    const tree = buildSunburst({
      columns: cols(["s1", "s2", "value"]),
      rows: [
        { s1: "a", s2: "b", value: 2 },
        { s1: "a", s2: null, value: 1 },
        { s1: "c", s2: "d", value: 3 },
      ],
    });
    expect(tree.map((n) => n.name)).toEqual(["a", "c"]);
    expect(tree[0].children?.map((c) => [c.name, c.value, !!c.exit])).toEqual([
      ["b", 2, false],
      ["end", 1, true],
    ]);
    expect(totalSize(tree)).toBe(6);
  });
  it("reads the hierarchy format", () => {
    const tree = buildSunburst({
      columns: cols(["sequence", "stage", "node", "value"]),
      rows: [
        { sequence: 1, stage: 2, node: "y", value: 5 },
        { sequence: 1, stage: 1, node: "x", value: 5 },
      ],
    });
    expect(tree[0]).toEqual({ name: "x", children: [{ name: "y", value: 5 }] });
  });
});

describe("word cloud", () => {
  const data = {
    columns: cols(["w", "f"]),
    rows: [
      { w: "a bb a", f: 3 },
      { w: "ccc", f: 0 },
      { w: "bb", f: 2 },
    ],
  };
  it("counts words and scales sizes before the limits apply", () => {
    const words = buildWords(data, getWordCloudOptions({ column: "w" }));
    expect(words.map((w) => [w.text, w.count, w.fontSize])).toEqual([
      ["bb", 2, 100],
      ["a", 2, 100],
      ["ccc", 1, 10],
    ]);
    const limited = buildWords(
      data,
      getWordCloudOptions({ column: "w", wordLengthLimit: { min: 2 } }),
    );
    expect(limited.map((w) => w.text)).toEqual(["bb", "ccc"]);
  });
  it("uses a frequencies column, skipping values ≤ 0", () => {
    const words = buildWords(data, getWordCloudOptions({ column: "w", frequenciesColumn: "f" }));
    expect(words.map((w) => [w.text, w.count])).toEqual([
      ["a bb a", 3],
      ["bb", 2],
    ]);
  });
});
