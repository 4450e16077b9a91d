// @vitest-environment jsdom
// The bar wired to the address the way the dashboard page will wire it.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import CrossFilterBar from "./CrossFilterBar";
import { useCrossFilters, type CrossFilters } from "./useCrossFilters";
import { stubMatchMedia } from "../../../testing/matchMedia";

beforeEach(stubMatchMedia);
afterEach(cleanup);

let state: CrossFilters;

function Page() {
  state = useCrossFilters();
  const location = useLocation();
  return (
    <>
      <CrossFilterBar
        filters={state.filters}
        onRemove={state.remove}
        onClear={state.clear}
        onRemoveLast={state.removeLast}
      />
      <div data-testid="search">{location.search}</div>
    </>
  );
}

function renderPage() {
  const router = createMemoryRouter([{ path: "/dashboards/:slug", element: <Page /> }], {
    initialEntries: ["/dashboards/1-sales?p_year=2024"],
  });
  render(<RouterProvider router={router} />);
}

const tags = () => screen.queryAllByTestId("cross-filter-tag").map((t) => t.textContent);
const search = () => new URLSearchParams(screen.getByTestId("search").textContent ?? "");

describe("CrossFilterBar with useCrossFilters", () => {
  it("shows clicks as tags; close, Escape and Clear all remove them from the address", () => {
    renderPage();
    act(() => state.toggle({ widget: 1, column: "country", value: "FR" }));
    act(() => state.toggle({ widget: 2, column: "year", type: "integer", value: 2024 }));
    act(() => state.toggle({ widget: 3, column: "city", value: "Lyon" }));
    expect(tags()).toEqual(["country: FR", "year: 2024", "city: Lyon"]);

    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(tags()).toEqual(["country: FR", "year: 2024"]);

    fireEvent.click(screen.getByLabelText("Remove filter country"));
    expect(tags()).toEqual(["year: 2024"]);

    fireEvent.click(screen.getByText("Clear all"));
    expect(tags()).toEqual([]);
    expect(screen.queryByTestId("cross-filters")).toBeNull();
    expect(search().toString()).toBe("p_year=2024");
  });
});
