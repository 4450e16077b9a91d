// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation, useSearchParams } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { DrillDownBreadcrumbs } from "./DrillDownBreadcrumbs";

const sales = { title: "Sales overview", path: "/dashboards/1-sales?p_year=2024" };
const region = { title: "Region detail", path: "/dashboards/2-region?p_region=EU" };

/** A page showing the breadcrumbs, its address, and a button changing a parameter in place. */
function Page() {
  const location = useLocation();
  const [, setSearch] = useSearchParams();
  return (
    <>
      <DrillDownBreadcrumbs />
      <output data-testid="at">{location.pathname + location.search}</output>
      <button onClick={() => setSearch({ p_country: "FR" }, { replace: true })}>apply</button>
    </>
  );
}

function renderAt(state: unknown) {
  const router = createMemoryRouter([{ path: "*", element: <Page /> }], {
    initialEntries: [{ pathname: "/dashboards/3-country", search: "?p_country=DE", state }],
  });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(cleanup);

describe("DrillDownBreadcrumbs", () => {
  it("shows nothing on a page not reached by a drill-down", () => {
    renderAt(null);
    expect(screen.queryByTestId("drill-down-trail")).toBeNull();
  });

  it("lists the pages drilled through, each going back with the crumbs before it", async () => {
    const router = renderAt({ drillDownTrail: [sales, region] });
    const links = screen.getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([
      ["Sales overview", sales.path],
      ["Region detail", region.path],
    ]);
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Region detail" })));
    expect(screen.getByTestId("at").textContent).toBe(region.path);
    expect(router.state.location.state).toEqual({ drillDownTrail: [sales] });
    expect(screen.getByTestId("drill-down-trail").textContent).toBe("Sales overview");
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Sales overview" })));
    expect(screen.getByTestId("at").textContent).toBe(sales.path);
    expect(screen.queryByTestId("drill-down-trail")).toBeNull();
  });

  it("keeps the trail when a parameter changes the address in place, and stores it back", async () => {
    const router = renderAt({ drillDownTrail: [sales] });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "apply" })));
    expect(screen.getByTestId("at").textContent).toBe("/dashboards/3-country?p_country=FR");
    expect(screen.getByTestId("drill-down-trail").textContent).toBe("Sales overview");
    expect(router.state.location.state).toEqual({ drillDownTrail: [sales] });
  });

  it("leaves a modified click to the browser", async () => {
    renderAt({ drillDownTrail: [sales] });
    const link = screen.getByRole("link", { name: "Sales overview" });
    await act(async () => fireEvent.click(link, { ctrlKey: true }));
    expect(screen.getByTestId("at").textContent).toBe("/dashboards/3-country?p_country=DE");
  });
});
