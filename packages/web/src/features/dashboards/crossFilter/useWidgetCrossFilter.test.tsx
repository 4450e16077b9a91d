// @vitest-environment jsdom
import type { CrossFilter } from "@sightline/core";
import { cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../../api/dashboards";
import type { QueryResultData } from "../../../visualizations";
import { useCrossFilterParameterValues, useWidgetCrossFilter } from "./useWidgetCrossFilter";
import type { DashboardCrossFilter } from "./widgetCrossFilter";

afterEach(cleanup);

const widget = {
  id: 5,
  options: {},
  visualization: {
    query: { options: { parameters: [{ name: "yr", type: "number", value: 2020 }] } },
  },
} as unknown as DashboardWidget;

const data: QueryResultData = {
  columns: [
    { name: "country", type: "string" },
    { name: "n", type: "integer" },
  ],
  rows: [
    { country: "FR", n: 1 },
    { country: "DE", n: 2 },
  ],
};

const state = (filters: CrossFilter[]): DashboardCrossFilter => ({
  filters,
  mappings: {},
  parameters: { year: { "5": "yr" } },
});
const fr: CrossFilter = { column: "country", type: "string", values: ["FR"], widget: 1 };
const city: CrossFilter = { column: "city", values: ["Paris"], widget: 1 };

describe("useWidgetCrossFilter", () => {
  it("redraws only when a filter that concerns the widget changes", () => {
    const { result, rerender } = renderHook(
      ({ cf }) => useWidgetCrossFilter(widget, data, cf, vi.fn()),
      { initialProps: { cf: state([]) } },
    );
    expect(result.current.data).toBe(data);
    rerender({ cf: state([city]) });
    expect(result.current.data).toBe(data);
    rerender({ cf: state([city, fr]) });
    const filtered = result.current.data;
    expect(filtered?.rows).toEqual([{ country: "FR", n: 1 }]);
    rerender({ cf: state([fr]) });
    expect(result.current.data).toBe(filtered);
    expect(result.current.filteredOut).toBe(false);
    rerender({ cf: state([{ ...fr, values: ["JP"] }]) });
    expect(result.current.filteredOut).toBe(true);
  });

  it("hands clicks with the column's type; none when the widget or dashboard has it off", () => {
    const onClick = vi.fn();
    const { result, rerender } = renderHook(
      ({ w, cf }) => useWidgetCrossFilter(w, data, cf, onClick),
      { initialProps: { w: widget, cf: state([]) as DashboardCrossFilter | undefined } },
    );
    result.current.onDatumClick?.({ column: "n", value: 2, additive: false });
    expect(onClick).toHaveBeenCalledWith(widget, {
      column: "n",
      value: 2,
      additive: false,
      columnType: "integer",
    });
    rerender({ w: { ...widget, options: { crossFilter: { enabled: false } } }, cf: state([fr]) });
    expect(result.current.onDatumClick).toBeUndefined();
    expect(result.current.data).toBe(data);
    rerender({ w: widget, cf: undefined });
    expect(result.current.onDatumClick).toBeUndefined();
  });

  it("a filter mapped to a parameter sets it instead, keeping the same values object otherwise", () => {
    const values = { yr: 2020 };
    const year: CrossFilter = { column: "year", type: "integer", values: [2024], widget: 1 };
    const { result, rerender } = renderHook(
      ({ cf }) => useCrossFilterParameterValues(widget, values, cf),
      { initialProps: { cf: state([fr]) } },
    );
    expect(result.current).toBe(values);
    rerender({ cf: state([fr, year]) });
    expect(result.current).toEqual({ yr: 2024 });
  });
});
