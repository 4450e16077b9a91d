import { describe, expect, it } from "vitest";
import {
  applicableCrossFilters,
  crossFilterColumn,
  crossFilterSelection,
  crossFilterValue,
  dateInstant,
  filterWidgetRows,
  readDashboardCrossFilterOptions,
  readWidgetCrossFilterOptions,
  removeCrossFilter,
  sameCrossFilterValue,
  sourceCrossFilters,
  toggleCrossFilterValue,
  type CrossFilter,
  type CrossFilterWidget,
} from "./crossFilter";
import { decodeCrossFilters, encodeCrossFilters } from "./crossFilterUrl";

type Row = Record<string, unknown>;

const widget = (id: number, columns: CrossFilterWidget["columns"]): CrossFilterWidget => ({
  id,
  columns,
});

describe("settings in the stored options", () => {
  it("default to enabled with no mappings", () => {
    const none = { enabled: true, mappings: {}, parameters: {} };
    expect(readDashboardCrossFilterOptions({})).toEqual(none);
    expect(readDashboardCrossFilterOptions(null)).toEqual(none);
    expect(readWidgetCrossFilterOptions(undefined)).toEqual({ enabled: true });
    expect(readWidgetCrossFilterOptions({ position: {} })).toEqual({ enabled: true });
  });

  it("read what editors switched off and mapped, dropping malformed entries", () => {
    expect(readWidgetCrossFilterOptions({ crossFilter: { enabled: false } })).toEqual({
      enabled: false,
    });
    expect(
      readDashboardCrossFilterOptions({
        crossFilter: {
          enabled: false,
          mappings: { country: { "3": "cntry", "4": 5, "5": "" }, bad: "x", empty: {} },
          parameters: { year: { "7": "p_year", "8": null }, month: [] },
        },
      }),
    ).toEqual({
      enabled: false,
      mappings: { country: { "3": "cntry" } },
      parameters: { year: { "7": "p_year" } },
    });
    expect(readDashboardCrossFilterOptions({ crossFilter: [] })).toEqual({
      enabled: true,
      mappings: {},
      parameters: {},
    });
  });
});

describe("clicked values are typed as their column", () => {
  it("numbers, numeric strings, booleans, text", () => {
    expect(crossFilterValue("42", "integer")).toBe(42);
    expect(crossFilterValue(" 4.5 ", "float")).toBe(4.5);
    expect(crossFilterValue("n/a", "integer")).toBe("n/a");
    expect(crossFilterValue("TRUE", "boolean")).toBe(true);
    expect(crossFilterValue(false, "boolean")).toBe(false);
    expect(crossFilterValue(7, "string")).toBe(7);
    expect(crossFilterValue("FR", null)).toBe("FR");
    expect(crossFilterValue(undefined, "string")).toBeNull();
    expect(crossFilterValue(null, "date")).toBeNull();
    expect(crossFilterValue({ a: 1 }, null)).toBe('{"a":1}');
  });

  it("dates as ISO strings: a day for date columns, an instant for datetimes", () => {
    expect(crossFilterValue("2024-01-05", "date")).toBe("2024-01-05");
    expect(crossFilterValue("2024-01-05T00:00:00Z", "date")).toBe("2024-01-05");
    expect(crossFilterValue(new Date(Date.UTC(2024, 0, 5)), "date")).toBe("2024-01-05");
    expect(crossFilterValue("2024-01-05 10:30", "datetime")).toBe("2024-01-05T10:30:00.000Z");
    expect(crossFilterValue("2024-01-05T12:30:00+02:00", "datetime")).toBe(
      "2024-01-05T10:30:00.000Z",
    );
    expect(crossFilterValue("not a date", "date")).toBe("not a date");
  });

  it("date instants ignore the string form; zone-less means UTC", () => {
    const t = Date.UTC(2024, 0, 5);
    for (const form of [
      "2024-01-05",
      "2024-01-05T00:00:00Z",
      "2024-01-05T00:00:00",
      "2024-01-05 00:00",
      "2024-01-05T00:00:00.000+00:00",
      "2024-01-05T01:00:00+01:00",
      new Date(t),
    ]) {
      expect(dateInstant(form), String(form)).toBe(t);
    }
    expect(dateInstant("2024-01-05T10:30:00.5")).toBe(Date.UTC(2024, 0, 5, 10, 30, 0, 500));
    expect(dateInstant("2024-01-05T10:30:00.123456Z")).toBe(Date.UTC(2024, 0, 5, 10, 30, 0, 123));
    expect(dateInstant("2024-01-05T05:00-05:30")).toBe(Date.UTC(2024, 0, 5, 10, 30));
    expect(dateInstant("2024-01-05T15:30+0530")).toBe(Date.UTC(2024, 0, 5, 10));
    expect(dateInstant(" 2024-01-05 ")).toBe(t);
    expect(dateInstant("2024-13-01")).toBeNaN();
    expect(dateInstant("2024-01-05T24:00")).toBeNaN();
    expect(dateInstant("2024-01-05T10")).toBeNaN();
    expect(dateInstant("20240105")).toBeNaN();
    expect(dateInstant("yesterday")).toBeNaN();
    expect(dateInstant(true)).toBeNaN();
  });

  it("sameCrossFilterValue compares under the filter's type", () => {
    expect(sameCrossFilterValue(5, "5", "integer")).toBe(true);
    expect(sameCrossFilterValue(5, "5")).toBe(true);
    expect(sameCrossFilterValue("05", "5", "string")).toBe(false);
    expect(sameCrossFilterValue("2024-01-05", "2024-01-05T00:00:00Z", "date")).toBe(true);
    expect(sameCrossFilterValue(null, undefined)).toBe(true);
    expect(sameCrossFilterValue(null, "null")).toBe(false);
    expect(sameCrossFilterValue(null, "")).toBe(false);
  });
});

describe("which filters apply to a widget", () => {
  const filters: CrossFilter[] = [
    { column: "country", values: ["FR"], widget: 1 },
    { column: "year", type: "integer", values: [2024], widget: 2 },
  ];

  it("a column of the same name; the source widget is left out", () => {
    const applied = applicableCrossFilters(
      widget(1, [{ name: "country" }, { name: "year", type: "integer" }]),
      filters,
    );
    expect(applied).toEqual([{ filter: filters[1], column: "year", columnType: "integer" }]);
    expect(applicableCrossFilters(widget(3, [{ name: "other" }]), filters)).toEqual([]);
    expect(applicableCrossFilters(widget(3, [{ name: "Country" }]), filters)).toEqual([]);
  });

  it("a column mapped to the filter column for that widget", () => {
    const mappings = { country: { "3": "cntry" } };
    const applied = applicableCrossFilters(
      widget(3, [{ name: "cntry", type: "string" }]),
      filters,
      mappings,
    );
    expect(applied).toEqual([{ filter: filters[0], column: "cntry", columnType: "string" }]);
    // The mapping is for widget 3 only.
    expect(applicableCrossFilters(widget(4, [{ name: "cntry" }]), filters, mappings)).toEqual([]);
    // A mapping to a column the result does not have falls back to the same name.
    expect(
      applicableCrossFilters(widget(3, [{ name: "country" }]), filters, mappings)[0]?.column,
    ).toBe("country");
  });

  it("a click on a mapped column is named by its filter column", () => {
    const mappings = { country: { "3": "cntry" } };
    expect(crossFilterColumn(3, "cntry", mappings)).toBe("country");
    expect(crossFilterColumn(4, "cntry", mappings)).toBe("cntry");
    expect(crossFilterColumn(3, "year", mappings)).toBe("year");
  });

  it("sourceCrossFilters gives a widget its own selection to highlight", () => {
    expect(sourceCrossFilters(2, filters)).toEqual([filters[1]]);
    expect(sourceCrossFilters(9, filters)).toEqual([]);
  });

  it("crossFilterSelection tells a renderer which of its values are selected", () => {
    const selected = crossFilterSelection(2, filters);
    expect(selected("year", 2024)).toBe(true);
    expect(selected("year", "2024")).toBe(true);
    expect(selected("year", 2023)).toBe(false);
    // Widget 2 did not start the country filter: nothing of it is highlighted there.
    expect(selected("country", "FR")).toBe(false);
    expect(crossFilterSelection(9, filters)("year", 2024)).toBe(false);
    // Under its own column name when mapped.
    const mapped = crossFilterSelection(1, filters, { country: { "1": "cntry" } });
    expect(mapped("cntry", "FR")).toBe(true);
    expect(mapped("country", "FR")).toBe(false);
    const days = crossFilterSelection(4, [
      { column: "day", type: "date", values: ["2024-01-05", null], widget: 4 },
    ]);
    expect(days("day", new Date(Date.UTC(2024, 0, 5)))).toBe(true);
    expect(days("day", "2024-01-05T00:00:00Z")).toBe(true);
    expect(days("day", null)).toBe(true);
    expect(days("day", "2024-01-06")).toBe(false);
  });
});

describe("filtering rows", () => {
  const rows: Row[] = [
    { country: "FR", year: 2023, n: 1 },
    { country: "FR", year: 2024, n: 2 },
    { country: "DE", year: 2024, n: 3 },
    { country: null, year: 2024, n: 4 },
    { country: "null", year: null, n: 5 },
    { year: 2025, n: 6 },
  ];
  const w = widget(9, [
    { name: "country", type: "string" },
    { name: "year", type: "integer" },
    { name: "n", type: "integer" },
  ]);
  const ns = (out: readonly Row[]) => out.map((r) => r.n);

  it("returns the same array when no filter applies", () => {
    expect(filterWidgetRows(w, rows, [])).toBe(rows);
    expect(filterWidgetRows(w, rows, [{ column: "other", values: ["x"] }])).toBe(rows);
    expect(filterWidgetRows(w, rows, [{ column: "country", values: ["FR"], widget: 9 }])).toBe(
      rows,
    );
  });

  it("several values of one filter combine with OR, several filters with AND", () => {
    expect(ns(filterWidgetRows(w, rows, [{ column: "country", values: ["FR", "DE"] }]))).toEqual([
      1, 2, 3,
    ]);
    expect(
      ns(
        filterWidgetRows(w, rows, [
          { column: "country", values: ["FR", "DE"] },
          { column: "year", values: [2024] },
        ]),
      ),
    ).toEqual([2, 3]);
  });

  it("nulls (and missing values) match a null filter value only", () => {
    expect(ns(filterWidgetRows(w, rows, [{ column: "country", values: [null] }]))).toEqual([4, 6]);
    expect(ns(filterWidgetRows(w, rows, [{ column: "country", values: ["null"] }]))).toEqual([5]);
    expect(ns(filterWidgetRows(w, rows, [{ column: "country", values: [""] }]))).toEqual([]);
    expect(ns(filterWidgetRows(w, rows, [{ column: "year", values: [null, 2025] }]))).toEqual([
      5, 6,
    ]);
  });

  it("numbers match numeric strings, in either direction", () => {
    const text = widget(1, [{ name: "year", type: "string" }]);
    const textRows: Row[] = [{ year: "2024" }, { year: "2024.0" }, { year: "x" }, { year: 2024 }];
    // A number clicked in an integer column against a column of numeric strings.
    expect(
      filterWidgetRows(text, textRows, [{ column: "year", type: "integer", values: [2024] }]),
    ).toEqual([{ year: "2024" }, { year: "2024.0" }, { year: 2024 }]);
    // A numeric string filter against a numeric column.
    expect(ns(filterWidgetRows(w, rows, [{ column: "year", values: ["2024"] }]))).toEqual([
      2, 3, 4,
    ]);
    // Text against text stays exact: "05" is not "5".
    const codes = widget(1, [{ name: "zip", type: "string" }]);
    expect(
      filterWidgetRows(codes, [{ zip: "05" }, { zip: "5" }], [{ column: "zip", values: ["5"] }]),
    ).toEqual([{ zip: "5" }]);
  });

  it("booleans match their text", () => {
    const b = widget(1, [{ name: "ok", type: "boolean" }]);
    const bRows: Row[] = [
      { ok: true },
      { ok: false },
      { ok: "true" },
      { ok: "FALSE" },
      { ok: null },
    ];
    expect(filterWidgetRows(b, bRows, [{ column: "ok", values: [true] }])).toEqual([
      { ok: true },
      { ok: "true" },
    ]);
    const untyped = widget(1, [{ name: "ok" }]);
    expect(
      filterWidgetRows(untyped, bRows, [{ column: "ok", type: "boolean", values: [false] }]),
    ).toEqual([{ ok: false }, { ok: "FALSE" }]);
  });

  it("dates compare by instant whatever their form, Dates in the result included", () => {
    const d = widget(1, [{ name: "day", type: "datetime" }]);
    const dRows: Row[] = [
      { day: "2024-01-05T00:00:00Z" },
      { day: "2024-01-05" },
      { day: new Date(Date.UTC(2024, 0, 5)) },
      { day: "2024-01-05 00:00:00" },
      { day: "2024-01-06" },
      { day: "2024-01-05T00:00:00+01:00" },
      { day: null },
    ];
    const out = filterWidgetRows(d, dRows, [
      { column: "day", type: "date", values: ["2024-01-05"] },
    ]);
    expect(out).toEqual(dRows.slice(0, 4));
    // A Date row value matches even when the column's type is unknown.
    const untyped = widget(1, [{ name: "day" }]);
    expect(
      filterWidgetRows(untyped, dRows, [{ column: "day", values: ["2024-01-05T00:00:00Z"] }]),
    ).toEqual([dRows[0], dRows[2]]);
  });

  it("a mapped column is filtered under its own name", () => {
    const m = widget(3, [{ name: "cntry" }]);
    expect(
      filterWidgetRows(
        m,
        [{ cntry: "FR" }, { cntry: "DE" }],
        [{ column: "country", values: ["DE"], widget: 1 }],
        { country: { "3": "cntry" } },
      ),
    ).toEqual([{ cntry: "DE" }]);
  });

  it("filters 10,000 rows by two filters correctly", () => {
    const many: Row[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: i,
      group: `g${i % 10}`,
      day: `2024-01-${String((i % 28) + 1).padStart(2, "0")}`,
    }));
    const big = widget(1, [{ name: "id" }, { name: "group" }, { name: "day", type: "date" }]);
    const out = filterWidgetRows(big, many, [
      { column: "group", values: ["g3", "g4"] },
      { column: "day", type: "date", values: ["2024-01-04T00:00:00Z"] },
    ]);
    const expected = many.filter(
      (r) => (r.group === "g3" || r.group === "g4") && r.day === "2024-01-04",
    );
    expect(out).toEqual(expected);
    expect(out.length).toBeGreaterThan(0);
  });
});

describe("changing the filters", () => {
  const click = (value: CrossFilter["values"][number], widget = 1, column = "country") => ({
    widget,
    column,
    type: "string" as const,
    value,
  });

  it("a click selects, the same click removes", () => {
    const one = toggleCrossFilterValue([], click("FR"));
    expect(one).toEqual([{ column: "country", type: "string", values: ["FR"], widget: 1 }]);
    expect(toggleCrossFilterValue(one, click("FR"))).toEqual([]);
  });

  it("another value replaces the selection, or joins it when adding", () => {
    const one = toggleCrossFilterValue([], click("FR"));
    expect(toggleCrossFilterValue(one, click("DE"))[0]?.values).toEqual(["DE"]);
    const two = toggleCrossFilterValue(one, click("DE"), { add: true });
    expect(two[0]?.values).toEqual(["FR", "DE"]);
    expect(toggleCrossFilterValue(two, click("FR"))[0]?.values).toEqual(["DE"]);
  });

  it("compares clicked values under the type, nulls included", () => {
    const years = toggleCrossFilterValue([], { widget: 1, column: "y", type: "integer", value: 5 });
    expect(
      toggleCrossFilterValue(years, { widget: 1, column: "y", type: "integer", value: 5 }),
    ).toEqual([]);
    const withNull = toggleCrossFilterValue([], click(null));
    expect(withNull[0]?.values).toEqual([null]);
    expect(toggleCrossFilterValue(withNull, click(null))).toEqual([]);
  });

  it("the changed filter moves last and takes the clicking widget as its source", () => {
    let filters = toggleCrossFilterValue([], click("FR", 1));
    filters = toggleCrossFilterValue(filters, click(2024, 2, "year"));
    filters = toggleCrossFilterValue(filters, click("DE", 3));
    expect(filters.map((f) => [f.column, f.widget])).toEqual([
      ["year", 2],
      ["country", 3],
    ]);
    expect(removeCrossFilter(filters, "year").map((f) => f.column)).toEqual(["country"]);
  });

  it("does not change the array it is given", () => {
    const one = toggleCrossFilterValue([], click("FR"));
    const frozen = Object.freeze([...one]);
    toggleCrossFilterValue(frozen, click("DE"), { add: true });
    expect(frozen[0]?.values).toEqual(["FR"]);
  });
});

describe("the address form", () => {
  it("no filters: no parameter", () => {
    expect(encodeCrossFilters([])).toBeNull();
    expect(encodeCrossFilters([{ column: "a", values: [] }])).toBeNull();
    expect(decodeCrossFilters(null)).toEqual([]);
    expect(decodeCrossFilters("")).toEqual([]);
  });

  it("round-trips through URLSearchParams, odd characters included, next to p_ parameters", () => {
    const filters: CrossFilter[] = [
      {
        column: 'name with spaces & = ? # % + "quotes" / \\ ünïcødé 🚀',
        type: "string",
        values: ["a&b=c", "100% + more", "#hash?q", "", "emoji 🚀", "line\nbreak", null],
        widget: 12,
      },
      { column: "p_not_a_parameter", values: [1, 2.5, -3e-7] },
      { column: "ok", type: "boolean", values: [true, false] },
      { column: "day", type: "date", values: ["2024-01-05"], widget: 3 },
    ];
    const params = new URLSearchParams({ p_country: "FR", p_w3_year: "2024" });
    params.set("cf", encodeCrossFilters(filters)!);
    const href = `/dashboards/1-sales?${params.toString()}`;
    const back = new URL(href, "http://x").searchParams;
    expect(decodeCrossFilters(back.get("cf"))).toEqual(filters);
    expect(back.get("p_country")).toBe("FR");
    expect(back.get("p_w3_year")).toBe("2024");
    expect([...back.keys()].filter((k) => k.startsWith("p_"))).toEqual(["p_country", "p_w3_year"]);
  });

  it("drops numbers JSON can write but not compare (1e999)", () => {
    expect(decodeCrossFilters('[{"column":"a","values":[1e999,2]}]')).toEqual([
      { column: "a", values: [2] },
    ]);
  });

  it("keeps the filters' order, for 'remove the last'", () => {
    const filters: CrossFilter[] = [
      { column: "b", values: ["1"] },
      { column: "a", values: ["2"] },
    ];
    expect(decodeCrossFilters(encodeCrossFilters(filters)).map((f) => f.column)).toEqual([
      "b",
      "a",
    ]);
  });

  it("drops whatever is malformed instead of failing", () => {
    expect(decodeCrossFilters("not json")).toEqual([]);
    expect(decodeCrossFilters('{"column":"a","values":["x"]}')).toEqual([]);
    expect(
      decodeCrossFilters(
        JSON.stringify([
          { column: "", values: ["x"] },
          { column: "a" },
          { column: "b", values: [] },
          { column: "c", values: [{}, [], "ok", true] },
          { column: "c", values: ["again"] },
          { column: "d", values: [1], type: "weird", widget: "7" },
          { column: "e", values: [1], widget: 1.5 },
          "junk",
          null,
        ]),
      ),
    ).toEqual([
      { column: "c", values: ["ok", true] },
      { column: "d", values: [1] },
      { column: "e", values: [1] },
    ]);
  });
});
