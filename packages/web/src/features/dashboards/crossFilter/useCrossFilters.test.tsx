// @vitest-environment jsdom
import type { CrossFilter } from "@sightline/core";
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { useCrossFilters, type CrossFilters } from "./useCrossFilters";

afterEach(cleanup);

let state: CrossFilters;

function Harness() {
  state = useCrossFilters();
  const location = useLocation();
  return <div data-testid="search">{location.search}</div>;
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: "/dashboards/:slug", element: <Harness /> }], {
    initialEntries: [url],
  });
  render(<RouterProvider router={router} />);
  return router;
}

const search = () => new URLSearchParams(screen.getByTestId("search").textContent ?? "");
const cfInAddress = () => JSON.parse(search().get("cf") ?? "null") as CrossFilter[] | null;
const click = (value: string | number | null, column = "country", widget = 1) => ({
  widget,
  column,
  value,
});

describe("useCrossFilters", () => {
  it("reads the filters from the address, keeping p_ parameters untouched", () => {
    const cf = encodeURIComponent(
      JSON.stringify([{ column: "country", values: ["FR"], widget: 2 }]),
    );
    renderAt(`/dashboards/1-sales?p_year=2024&cf=${cf}&p_w3_x=a%26b`);
    expect(state.filters).toEqual([{ column: "country", values: ["FR"], widget: 2 }]);
    act(() => state.toggle(click("DE")));
    expect(search().get("p_year")).toBe("2024");
    expect(search().get("p_w3_x")).toBe("a&b");
    expect(state.filters).toEqual([{ column: "country", values: ["DE"], widget: 1 }]);
  });

  it("toggles a value: a click selects, the same click removes, the parameter goes away", () => {
    renderAt("/dashboards/1-sales?p_year=2024");
    act(() => state.toggle(click("FR")));
    expect(cfInAddress()).toEqual([{ column: "country", values: ["FR"], widget: 1 }]);
    act(() => state.toggle(click("FR")));
    expect(state.filters).toEqual([]);
    expect(search().has("cf")).toBe(false);
    expect(search().toString()).toBe("p_year=2024");
  });

  it("adds to a selection, and two changes in one go both count", () => {
    renderAt("/dashboards/1-sales");
    act(() => {
      state.toggle(click("FR"));
      state.toggle(click("DE"), { add: true });
    });
    expect(state.filters).toEqual([{ column: "country", values: ["FR", "DE"], widget: 1 }]);
  });

  it("removes one filter, the last one, or all", () => {
    renderAt("/dashboards/1-sales");
    act(() => state.toggle(click("FR")));
    act(() => state.toggle(click(2024, "year", 2)));
    act(() => state.toggle(click(null, "city", 3)));
    expect(state.filters.map((f) => f.column)).toEqual(["country", "year", "city"]);
    act(() => state.removeLast());
    expect(state.filters.map((f) => f.column)).toEqual(["country", "year"]);
    act(() => state.remove("country"));
    expect(state.filters.map((f) => f.column)).toEqual(["year"]);
    act(() => state.clear());
    expect(state.filters).toEqual([]);
    expect(search().has("cf")).toBe(false);
  });

  it("replaces the address entry instead of adding history", () => {
    const router = renderAt("/dashboards/1-sales");
    act(() => state.toggle(click("FR")));
    expect(router.state.historyAction).toBe("REPLACE");
  });

  it("ignores a malformed parameter", () => {
    renderAt("/dashboards/1-sales?cf=%7Bnot-json");
    expect(state.filters).toEqual([]);
    act(() => state.toggle(click("FR")));
    expect(cfInAddress()).toEqual([{ column: "country", values: ["FR"], widget: 1 }]);
  });

  it("keeps the same filters object while the parameter does not change", () => {
    const cf = encodeURIComponent(JSON.stringify([{ column: "a", values: [1] }]));
    const router = renderAt(`/dashboards/1-sales?cf=${cf}`);
    const before = state.filters;
    act(() => void router.navigate(`/dashboards/1-sales?cf=${cf}&p_x=1`));
    expect(state.filters).toBe(before);
  });
});
