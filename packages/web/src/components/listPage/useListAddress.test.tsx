// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { useListAddress } from "./useListAddress";

afterEach(cleanup);

/** Shows the address and the order the page would ask for; buttons stand in for the page's controls. */
function Harness() {
  const address = useListAddress({ pageSize: 20, order: "-created_at" });
  const location = useLocation();
  return (
    <div>
      <div data-testid="where">{location.search}</div>
      <div data-testid="order">{address.order || "(none)"}</div>
      <input
        aria-label="search"
        value={address.search}
        onChange={(e) => address.setSearch(e.target.value)}
      />
      <button onClick={() => address.update({ order: "-name" })}>sort</button>
      <button onClick={() => address.update({ page: "2" })}>page 2</button>
      <button onClick={() => address.submitSearch("")}>clear</button>
    </div>
  );
}

function open(search: string) {
  const router = createMemoryRouter([{ path: "/", element: <Harness /> }], {
    initialEntries: [`/${search}`],
  });
  render(<RouterProvider router={router} />);
}

const where = () => screen.getByTestId("where").textContent;
const order = () => screen.getByTestId("order").textContent;
const type = (value: string) =>
  fireEvent.change(screen.getByLabelText("search"), { target: { value } });

describe("useListAddress", () => {
  it("uses the default sort without a search", () => {
    open("");
    expect(order()).toBe("-created_at");
  });

  it("writes q after typing stops and goes back to page 1", async () => {
    open("?page=3");
    type("sales");
    await waitFor(() => expect(where()).toBe("?q=sales"));
  });

  it("clears the sort while searching and restores the saved sort when the search is cleared", async () => {
    open("?order=name");
    expect(order()).toBe("name");
    type("sales");
    await waitFor(() => expect(where()).toBe("?q=sales"));
    expect(order()).toBe("(none)");
    type("");
    await waitFor(() => expect(where()).toBe("?order=name"));
    expect(order()).toBe("name");
  });

  it("restores a sort chosen before the search, not the default", async () => {
    open("");
    fireEvent.click(screen.getByText("sort"));
    await waitFor(() => expect(order()).toBe("-name"));
    type("sales");
    await waitFor(() => expect(where()).toBe("?q=sales"));
    // Paging through the results keeps the saved sort.
    fireEvent.click(screen.getByText("page 2"));
    await waitFor(() => expect(where()).toBe("?q=sales&page=2"));
    fireEvent.click(screen.getByText("clear"));
    await waitFor(() => expect(where()).toBe("?order=-name"));
  });

  it("brings back the default sort when none was chosen", async () => {
    open("");
    type("sales");
    await waitFor(() => expect(where()).toBe("?q=sales"));
    type("");
    await waitFor(() => expect(where()).toBe(""));
    expect(order()).toBe("-created_at");
  });
});
