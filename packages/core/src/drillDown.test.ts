import { describe, expect, it } from "vitest";
import {
  drillDownHref,
  drillDownParameterValue,
  drillDownTargetPath,
  readDrillDownLink,
  readWidgetDrillDown,
  withDrillDown,
  type DrillDownLink,
} from "./drillDown";
import { parametersFromUrlParams } from "./parameters";

const link: DrillDownLink = {
  target: { type: "dashboard", id: 7, slug: "region-detail", name: "Region detail" },
  parameters: { region: { column: "country", type: "text" } },
  newTab: false,
};

describe("readDrillDownLink", () => {
  it("reads a stored link as written", () => {
    expect(readDrillDownLink(JSON.parse(JSON.stringify(link)))).toEqual(link);
  });

  it.each([null, undefined, 3, "x", [], {}, { target: null }, { target: { type: "url", id: 1 } }])(
    "has no link for %j",
    (value) => expect(readDrillDownLink(value)).toBeNull(),
  );

  it.each([0, -1, 1.5, "abc", null, Number.NaN])("refuses the target id %j", (id) =>
    expect(readDrillDownLink({ target: { type: "query", id } })).toBeNull(),
  );

  it("accepts an id written as digits, and defaults the rest", () => {
    expect(readDrillDownLink({ target: { type: "query", id: "12" } })).toEqual({
      target: { type: "query", id: 12 },
      parameters: {},
      newTab: false,
    });
  });

  it("keeps usable parameter entries only, a bare column name included", () => {
    const read = readDrillDownLink({
      target: { type: "query", id: 3, name: "Orders" },
      parameters: {
        a: "country",
        b: { column: "day", type: "date" },
        c: { column: "" },
        d: 5,
        e: null,
        f: { column: "n", type: 4 },
        "": "x",
      },
      newTab: "yes",
    });
    expect(read).toEqual({
      target: { type: "query", id: 3, name: "Orders" },
      parameters: {
        a: { column: "country" },
        b: { column: "day", type: "date" },
        f: { column: "n" },
      },
      newTab: false,
    });
  });

  it("reads a widget's options.drillDown", () => {
    expect(readWidgetDrillDown({ position: {}, drillDown: link })).toEqual(link);
    expect(readWidgetDrillDown({ position: {} })).toBeNull();
    expect(readWidgetDrillDown(null)).toBeNull();
  });
});

describe("withDrillDown", () => {
  it("sets the key and keeps every other option", () => {
    const options = { position: { col: 1 }, parameterMappings: { a: 1 }, crossFilter: { x: 1 } };
    expect(withDrillDown(options, link)).toEqual({ ...options, drillDown: link });
    expect(options).not.toHaveProperty("drillDown");
  });

  it("removes the key for no link", () => {
    expect(withDrillDown({ isHidden: false, drillDown: link }, null)).toEqual({ isHidden: false });
  });
});

describe("drillDownTargetPath", () => {
  it("names dashboards by id and slug, queries by id", () => {
    expect(drillDownTargetPath({ type: "dashboard", id: 7, slug: "sales" })).toBe(
      "/dashboards/7-sales",
    );
    expect(drillDownTargetPath({ type: "dashboard", id: 7 })).toBe("/dashboards/7");
    expect(drillDownTargetPath({ type: "query", id: 3 })).toBe("/queries/3");
  });

  it("escapes a slug", () => {
    expect(drillDownTargetPath({ type: "dashboard", id: 1, slug: "a/b?c" })).toBe(
      "/dashboards/1-a%2Fb%3Fc",
    );
  });
});

describe("drillDownParameterValue", () => {
  const day = new Date(Date.UTC(2024, 2, 1, 0, 0, 0));
  const moment = new Date(Date.UTC(2024, 2, 1, 14, 5, 9));

  it.each([
    ["date", day, "2024-03-01"],
    ["date", moment, "2024-03-01"],
    ["date", "2024-03-01", "2024-03-01"],
    ["date", "2024-03-01 23:30:00", "2024-03-01"],
    ["date", Date.UTC(2024, 2, 1), "2024-03-01"],
    ["datetime-local", moment, "2024-03-01 14:05"],
    ["datetime-with-seconds", moment, "2024-03-01 14:05:09"],
    ["datetime-with-seconds", "2024-03-01T14:05:09", "2024-03-01 14:05:09"],
    ["datetime-local", "2024-03-01T14:05:09Z", "2024-03-01 14:05"],
    ["date-range", moment, "2024-03-01--2024-03-01"],
    ["datetime-range", "2024-03-01", "2024-03-01 00:00--2024-03-01 23:59"],
    ["datetime-range-with-seconds", day, "2024-03-01 00:00:00--2024-03-01 23:59:59"],
    ["number", 42, "42"],
    ["number", "3.5", "3.5"],
    ["number", 0, "0"],
    ["text", "Canada", "Canada"],
    ["text", 12, "12"],
    ["text", true, "true"],
    ["enum", "B", "B"],
    ["query", 9, "9"],
    [undefined, "x", "x"],
    [undefined, moment, "2024-03-01 14:05:09"],
  ])("%s from %j is %j", (type, value, expected) => {
    expect(drillDownParameterValue(type, value)).toBe(expected);
  });

  it.each([
    ["date", "not a date"],
    ["date", "03/01/2024"],
    ["date-range", null],
    ["number", "abc"],
    ["number", Number.NaN],
    ["text", null],
    ["text", undefined],
    ["text", ""],
  ])("%s from %j gives no value", (type, value) => {
    expect(drillDownParameterValue(type, value)).toBeNull();
  });
});

describe("drillDownHref", () => {
  it("writes p_<name> for each mapped column of the row", () => {
    const href = drillDownHref(
      {
        target: { type: "dashboard", id: 7, slug: "region-detail" },
        parameters: {
          region: { column: "country", type: "text" },
          day: { column: "created", type: "date" },
          period: { column: "created", type: "date-range" },
          unused: { column: "missing", type: "text" },
          empty: { column: "nothing", type: "number" },
        },
        newTab: false,
      },
      { country: "Côte d'Ivoire & co", created: new Date(Date.UTC(2024, 0, 31)), nothing: null },
    );
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/dashboards/7-region-detail");
    expect([...url.searchParams.entries()]).toEqual([
      ["p_region", "Côte d'Ivoire & co"],
      ["p_day", "2024-01-31"],
      ["p_period", "2024-01-31--2024-01-31"],
    ]);
  });

  it("is the bare target address when nothing is mapped", () => {
    expect(drillDownHref({ ...link, parameters: {} }, { country: "FR" })).toBe(
      "/dashboards/7-region-detail",
    );
  });

  it("writes values the target page reads back as the same parameter values", () => {
    const defs = [
      { name: "region", type: "text" },
      { name: "n", type: "number" },
      { name: "day", type: "date" },
      { name: "period", type: "date-range" },
      { name: "at", type: "datetime-local" },
    ];
    const href = drillDownHref(
      {
        target: { type: "query", id: 3 },
        parameters: Object.fromEntries(
          defs.map((d) => [d.name, { column: "c_" + d.name, type: d.type }]),
        ),
        newTab: true,
      },
      {
        c_region: "EU",
        c_n: 12.5,
        c_day: "2023-12-24",
        c_period: new Date(Date.UTC(2023, 11, 24, 8)),
        c_at: "2023-12-24 08:30:00",
      },
    );
    const search = new URL(href, "http://x").searchParams;
    expect(parametersFromUrlParams(defs, search)).toEqual({
      region: "EU",
      n: 12.5,
      day: "2023-12-24",
      period: { start: "2023-12-24", end: "2023-12-24" },
      at: "2023-12-24 08:30",
    });
  });
});
