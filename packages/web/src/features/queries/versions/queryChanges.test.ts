import { describe, expect, it } from "vitest";
import type { Query, Visualization } from "@sightline/core";
import { summaryLine, summarySentence } from "../../versionHistory/changeWords";
import { queryChanges, type QueryVersionFields } from "./queryChanges";

const base: QueryVersionFields = {
  query: "select 1",
  name: "Orders",
  description: null,
  data_source_id: 1,
  schedule: null,
  tags: ["sales"],
  is_draft: false,
  options: { parameters: [] },
  visualizations: [],
};

const vis = (id: number, name: string, options: Record<string, unknown> = {}) =>
  ({ id, name, type: "CHART", options }) as unknown as Visualization;

const details = (before: QueryVersionFields | null, after: QueryVersionFields) =>
  queryChanges(before, after).map((c) => c.detail);

describe("query version changes", () => {
  it("says a first version created the query", () => {
    expect(summarySentence(queryChanges(null, base))).toBe("Query created");
  });

  it("sums up a text change and added parameters in one line", () => {
    const after: QueryVersionFields = {
      ...base,
      query: "select {{ a }}, {{ b }}",
      options: {
        parameters: [
          { name: "a", type: "text" },
          { name: "b", type: "number" },
        ],
      },
    };
    const changes = queryChanges(base, after);
    expect(summaryLine(changes)).toBe("text changed, 2 parameters added");
    expect(changes.map((c) => c.detail)).toEqual([
      "Query text changed",
      'Parameter "a" added',
      'Parameter "b" added',
    ]);
  });

  it("names what changed in a parameter, and removed ones", () => {
    const before = {
      ...base,
      options: {
        parameters: [
          { name: "a", type: "text", title: "A" },
          { name: "b", type: "number" },
        ],
      },
    };
    const after = {
      ...base,
      options: { parameters: [{ name: "a", type: "number", title: "Region", value: 3 }] },
    };
    const changes = queryChanges(before, after);
    expect(changes.map((c) => c.detail)).toEqual([
      'Parameter "b" removed',
      'Parameter "a" (Region) changed: type, title, default value',
    ]);
    expect(summaryLine(changes)).toBe("1 parameter removed, 1 parameter changed");
  });

  it("tells a reordering of the same parameters", () => {
    const p = [
      { name: "a", type: "text" },
      { name: "b", type: "text" },
    ];
    expect(
      details(
        { ...base, options: { parameters: p } },
        { ...base, options: { parameters: [p[1]!, p[0]!] } },
      ),
    ).toEqual(["Parameters reordered"]);
  });

  it("reads name, description, data source, schedule, tags and publishing in words", () => {
    const after: QueryVersionFields = {
      ...base,
      name: "Orders by day",
      description: "Daily orders",
      data_source_id: 2,
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
      tags: ["finance"],
      is_draft: true,
    };
    const changes = queryChanges(base, after, {
      dataSourceName: (id) => (id === 1 ? "Demo" : "Warehouse"),
      scheduleWords: () => "every hour",
    });
    expect(changes.map((c) => c.detail)).toEqual([
      'Renamed from "Orders" to "Orders by day"',
      'Description changed to "Daily orders"',
      "Data source changed from Demo to Warehouse",
      "Schedule set to every hour",
      'Tags: added "finance"; removed "sales"',
      "Unpublished",
    ]);
    expect(summaryLine(changes)).toBe(
      "name changed, description changed, data source changed, schedule changed, tags changed, query unpublished",
    );
    expect(details(after, { ...after, schedule: null })).toEqual(["Schedule removed"]);
  });

  it("tells other options apart from parameters, ignoring key order", () => {
    const before = {
      ...base,
      options: { parameters: [], apply_auto_limit: true, x: { a: 1, b: 2 } },
    };
    expect(
      details(before, {
        ...before,
        options: { x: { b: 2, a: 1 }, apply_auto_limit: true, parameters: [] },
      }),
    ).toEqual([]);
    expect(
      details(before, { ...before, options: { ...before.options, apply_auto_limit: false } }),
    ).toEqual(["Query options changed"]);
  });

  it("lists visualizations added, removed, renamed and changed", () => {
    const before = { ...base, visualizations: [vis(1, "Table"), vis(2, "Chart"), vis(3, "Map")] };
    const after = {
      ...base,
      visualizations: [vis(1, "Table", { itemsPerPage: 50 }), vis(2, "Bars"), vis(4, "Pie")],
    };
    const changes = queryChanges(before, after);
    expect(changes.map((c) => c.detail)).toEqual([
      'Visualization "Table" changed',
      'Visualization "Chart" renamed to "Bars"',
      'Visualization "Pie" added',
      'Visualization "Map" removed',
    ]);
    expect(summaryLine(changes)).toBe(
      "2 visualizations changed, 1 visualization added, 1 visualization removed",
    );
  });

  it("says nothing changed for equal versions, and skips fields a version lacks", () => {
    expect(summarySentence(queryChanges(base, { ...base }))).toBe("No changes");
    const bare = { query: "select 1", name: "Orders", options: {} } as Pick<
      Query,
      "query" | "name" | "options"
    >;
    expect(details(base, bare)).toEqual([]);
  });
});
