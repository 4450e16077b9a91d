// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../api/dashboards";
import {
  useDashboardCrossFilter,
  type DashboardCrossFilterControls,
} from "./useDashboardCrossFilter";
import type { WidgetDatumClick } from "./useWidgetCrossFilter";

afterEach(cleanup);

let controls: DashboardCrossFilterControls;

function renderWith(options: unknown, url = "/dashboards/1-sales") {
  function Harness() {
    controls = useDashboardCrossFilter(options);
    return null;
  }
  const router = createMemoryRouter([{ path: "/dashboards/:slug", element: <Harness /> }], {
    initialEntries: [url],
  });
  render(<RouterProvider router={router} />);
}

const widget = (id: number, options: Record<string, unknown> = {}) =>
  ({ id, options }) as unknown as DashboardWidget;
const click = (value: unknown, column = "country", extra: Partial<WidgetDatumClick> = {}) => ({
  column,
  value,
  additive: false,
  columnType: "string" as const,
  ...extra,
});

describe("useDashboardCrossFilter", () => {
  it("turns clicks into filters: mapped to the dashboard's column, typed, Ctrl adds", () => {
    renderWith({ crossFilter: { mappings: { country: { "2": "land" } } } });
    act(() => controls.onDatumClick(widget(2), click("FR", "land")));
    expect(controls.state?.filters).toEqual([
      { column: "country", values: ["FR"], type: "string", widget: 2 },
    ]);
    act(() => controls.onDatumClick(widget(2), click("DE", "land", { additive: true })));
    const day = new Date(Date.UTC(2024, 0, 5));
    act(() => controls.onDatumClick(widget(3), click(day, "day", { columnType: "date" })));
    expect(controls.state?.filters).toEqual([
      { column: "country", values: ["FR", "DE"], type: "string", widget: 2 },
      { column: "day", values: ["2024-01-05"], type: "date", widget: 3 },
    ]);
    expect(controls.bar.filters).toBe(controls.state?.filters);
    // The same function on every render, so memoised widgets are not redrawn for it.
    const first = controls.onDatumClick;
    act(() => controls.bar.onClear());
    expect(controls.onDatumClick).toBe(first);
    expect(controls.state?.filters).toEqual([]);
  });

  it("a widget with cross-filtering off starts no filter", () => {
    renderWith({});
    act(() => controls.onDatumClick(widget(2, { crossFilter: { enabled: false } }), click("FR")));
    expect(controls.state?.filters).toEqual([]);
  });

  it("a dashboard with it off ignores clicks and the address", () => {
    const cf = encodeURIComponent(JSON.stringify([{ column: "country", values: ["FR"] }]));
    renderWith({ crossFilter: { enabled: false } }, `/dashboards/1-sales?cf=${cf}`);
    expect(controls.state).toBeUndefined();
    expect(controls.bar.filters).toEqual([]);
    act(() => controls.onDatumClick(widget(2), click("DE")));
    expect(controls.bar.filters).toEqual([]);
  });
});
