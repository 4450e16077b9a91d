// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, useListAddress } from "./useListAddress";

// The search debounce runs on fake timers, so a busy machine cannot make a test miss it.
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

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
/** Lets `ms` pass on the fake clock, and the router's navigation settle. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const click = async (name: string) => {
  fireEvent.click(screen.getByText(name));
  await pass(0);
};

describe("useListAddress", () => {
  it("uses the default sort without a search", () => {
    open("");
    expect(order()).toBe("-created_at");
  });

  it("writes q after typing stops and goes back to page 1", async () => {
    open("?page=3");
    type("sales");
    await pass(SEARCH_DEBOUNCE_MS - 1);
    expect(where()).toBe("?page=3");
    await pass(1);
    expect(where()).toBe("?q=sales");
  });

  it("waits for a pause in typing, however long the typing goes on", async () => {
    open("");
    for (const text of ["s", "sa", "sal"]) {
      type(text);
      await pass(SEARCH_DEBOUNCE_MS - 1);
    }
    expect(where()).toBe("");
    await pass(1);
    expect(where()).toBe("?q=sal");
  });

  it("clears the sort while searching and restores the saved sort when the search is cleared", async () => {
    open("?order=name");
    expect(order()).toBe("name");
    type("sales");
    await pass(SEARCH_DEBOUNCE_MS);
    expect(where()).toBe("?q=sales");
    expect(order()).toBe("(none)");
    type("");
    await pass(SEARCH_DEBOUNCE_MS);
    expect(where()).toBe("?order=name");
    expect(order()).toBe("name");
  });

  it("restores a sort chosen before the search, not the default", async () => {
    open("");
    await click("sort");
    expect(order()).toBe("-name");
    type("sales");
    await pass(SEARCH_DEBOUNCE_MS);
    expect(where()).toBe("?q=sales");
    // Paging through the results keeps the saved sort.
    await click("page 2");
    expect(where()).toBe("?q=sales&page=2");
    await click("clear");
    expect(where()).toBe("?order=-name");
  });

  it("brings back the default sort when none was chosen", async () => {
    open("");
    type("sales");
    await pass(SEARCH_DEBOUNCE_MS);
    expect(where()).toBe("?q=sales");
    type("");
    await pass(SEARCH_DEBOUNCE_MS);
    expect(where()).toBe("");
    expect(order()).toBe("-created_at");
  });
});
