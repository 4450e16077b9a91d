import { describe, expect, it } from "vitest";
import dayjs from "dayjs";
import type { QueryResult } from "@sightline/core";
import {
  REPORT_WIDGET_NAME_LENGTH,
  dataTimeLine,
  parameterValueText,
  parametersLine,
  reportWidgetName,
} from "./printText";
import { settledWidgets } from "./reportReadiness";

describe("print view header", () => {
  it("writes the parameter values used", () => {
    expect(parametersLine({})).toBeNull();
    expect(
      parametersLine({
        country: "DE",
        ids: [1, 2],
        period: { start: "2026-01-01", end: "2026-01-31" },
        empty: null,
      }),
    ).toBe("country: DE · ids: 1, 2 · period: 2026-01-01 – 2026-01-31 · empty: —");
    expect(parameterValueText(5)).toBe("5");
  });

  it("writes when the data was retrieved: one time, or the oldest and newest", () => {
    const result = (at: string) => ({ query_result: { retrieved_at: at } as QueryResult });
    expect(dataTimeLine({})).toBeNull();
    expect(dataTimeLine({ "1": { error: "x" } })).toBeNull();
    const a = "2026-11-28T10:00:00Z";
    const b = "2026-11-28T11:30:00Z";
    const stamp = (t: string) => dayjs(t).format("YYYY-MM-DD HH:mm [UTC]Z");
    expect(dataTimeLine({ "1": result(a), "2": result(a) })).toBe(`Data as of ${stamp(a)}`);
    expect(dataTimeLine({ "1": result(b), "2": result(a), "3": { error: "x" } })).toBe(
      `Data from ${stamp(a)} to ${stamp(b)}`,
    );
  });
});

describe("print view readiness", () => {
  const order = [
    { id: 1, name: "A" },
    { id: 2, name: "B" },
  ];

  it("waits while a widget is pending or has not said", () => {
    expect(settledWidgets(order, new Map([[1, { state: "painted", error: null }]]))).toBeNull();
    expect(
      settledWidgets(
        order,
        new Map([
          [1, { state: "painted", error: null }],
          [2, { state: "pending", error: null }],
        ]),
      ),
    ).toBeNull();
  });

  it("gives every widget's outcome in order once all settled", () => {
    expect(
      settledWidgets(
        order,
        new Map([
          [2, { state: "failed", error: "boom" }],
          [1, { state: "empty", error: null }],
        ]),
      ),
    ).toEqual([
      { widget_id: 1, name: "A", state: "empty", error: null },
      { widget_id: 2, name: "B", state: "failed", error: "boom" },
    ]);
    expect(settledWidgets([], new Map())).toEqual([]);
  });
});

describe("reportWidgetName", () => {
  const chart = (queryName: string, name: string) =>
    ({ visualization: { name, query: { name: queryName } } }) as never;

  it("names the query and a visualization other than the default table, whole", () => {
    expect(reportWidgetName(chart("Demo: Orders by country", "Chart"))).toBe(
      "Demo: Orders by country – Chart",
    );
    expect(reportWidgetName(chart("Demo: Orders by country", "Table"))).toBe(
      "Demo: Orders by country",
    );
  });

  it("names a text box by its text and cuts a very long name", () => {
    expect(reportWidgetName({ text: "## Notes\nFigures  are net." } as never)).toBe(
      "## Notes Figures are net.",
    );
    const long = reportWidgetName(chart("x".repeat(300), "Table"));
    expect(long).toHaveLength(REPORT_WIDGET_NAME_LENGTH + 1);
    expect(long.endsWith("…")).toBe(true);
  });
});
