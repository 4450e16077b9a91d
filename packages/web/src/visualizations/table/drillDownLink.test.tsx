// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DrillDownLink } from "@sightline/core";
import { DrillDownLinkCell, columnDrillDown } from "./drillDownLink";
import { defaultColumnOptions } from "./columns";
import { SignedInLinksContext } from "../signedInLinks";
import { DEFAULT_FORMATS } from "../types";

const link: DrillDownLink = {
  target: { type: "dashboard", id: 7, slug: "detail" },
  parameters: { country: { column: "country", type: "text" } },
  newTab: false,
};
const row = { country: "FR", sales: 10 };

afterEach(cleanup);

describe("columnDrillDown", () => {
  const column = defaultColumnOptions({ name: "country", type: "string" }, 0, DEFAULT_FORMATS);
  it("is the link of a link column only", () => {
    expect(columnDrillDown({ ...column, displayAs: "link", drillDown: link })).toEqual(link);
    expect(columnDrillDown({ ...column, displayAs: "string", drillDown: link })).toBeNull();
    expect(columnDrillDown({ ...column, displayAs: "link" })).toBeNull();
    expect(columnDrillDown({ ...column, displayAs: "link", drillDown: { target: 3 } })).toBeNull();
  });
});

describe("DrillDownLinkCell", () => {
  it("is a real link to the target with the row's values, its click the link's alone", () => {
    const cellClick = vi.fn();
    render(
      <div onClick={cellClick}>
        <DrillDownLinkCell link={{ ...link, newTab: true }} row={row} text="FR" title="" />
      </div>,
    );
    const anchor = screen.getByRole("link", { name: "FR" });
    expect(anchor.getAttribute("href")).toBe("/dashboards/7-detail?p_country=FR");
    expect(anchor.getAttribute("target")).toBe("_blank");
    expect(anchor.getAttribute("rel")).toBe("noopener noreferrer");
    anchor.addEventListener("click", (e) => e.preventDefault());
    fireEvent.click(anchor);
    expect(cellClick).not.toHaveBeenCalled();
  });

  it("opens the target inside the app with this page in the trail", async () => {
    document.title = "Sales overview | Sightline";
    function Where() {
      const location = useLocation();
      return <output data-testid="at">{location.pathname + location.search}</output>;
    }
    const router = createMemoryRouter(
      [
        {
          path: "*",
          element: (
            <>
              <DrillDownLinkCell link={link} row={row} text="FR" title="" />
              <Where />
            </>
          ),
        },
      ],
      { initialEntries: ["/dashboards/1-sales?p_year=2024"] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole("link", { name: "FR" }).getAttribute("target")).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "FR" })));
    expect(screen.getByTestId("at").textContent).toBe("/dashboards/7-detail?p_country=FR");
    expect(router.state.location.state).toEqual({
      drillDownTrail: [{ title: "Sales overview", path: "/dashboards/1-sales?p_year=2024" }],
    });
  });

  it("on a public page shows the value as plain text: visitors cannot open signed-in pages", () => {
    const cellClick = vi.fn();
    const router = createMemoryRouter(
      [
        {
          path: "*",
          element: (
            <SignedInLinksContext value={false}>
              <div onClick={cellClick}>
                <DrillDownLinkCell link={link} row={row} text="FR" title="France" />
              </div>
            </SignedInLinksContext>
          ),
        },
      ],
      { initialEntries: ["/public/dashboards/abc"] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.queryByRole("link")).toBeNull();
    const text = screen.getByText("FR");
    expect(text.getAttribute("title")).toBe("France");
    // The value's click stays the cell's (cross-filtering on the public page).
    fireEvent.click(text);
    expect(cellClick).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe("/public/dashboards/abc");
  });
});
