// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { renderWithQueries } from "../../testing/render";
import { json } from "../../testing/responses";
import { notify } from "../../app/notifications";
import { QuerySelector } from "./QuerySelector";

vi.mock("../../app/notifications", () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const RECENT = [
  { id: 1, name: "Orders", is_draft: false },
  { id: 2, name: "Unfinished", is_draft: true },
];

let requested: string[];
let routes: Record<string, () => Response>;

beforeEach(() => {
  requested = [];
  // The server is not part of this test: a fake fetch answers per path.
  vi.stubGlobal("fetch", async (url: string) => {
    const path = new URL(url, "http://localhost").pathname;
    requested.push(path);
    return (routes[path] ?? (() => json({ message: "Not found" }, 404)))();
  });
  stubMatchMedia();
  vi.mocked(notify.error).mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSelector(onChange = vi.fn()) {
  renderWithQueries(
    <MemoryRouter>
      <QuerySelector value={null} onChange={onChange} />
    </MemoryRouter>,
  );
  return onChange;
}

describe("the alert form's query selector", () => {
  it("lists recent queries; drafts cannot be picked; a published one is loaded and chosen", async () => {
    routes = {
      "/api/queries/recent": () => json(RECENT),
      "/api/queries/1": () => json({ id: 1, name: "Orders", options: {} }),
    };
    const onChange = renderSelector();
    fireEvent.click(await screen.findByText("Unfinished"));
    expect(requested).not.toContain("/api/queries/2");
    fireEvent.click(screen.getByText("Orders"));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: 1 })));
  });

  it("says 'Couldn't select query.' when the chosen query cannot be loaded", async () => {
    routes = {
      "/api/queries/recent": () => json(RECENT),
      "/api/queries/1": () => json({ message: "No access." }, 403),
    };
    const onChange = renderSelector();
    fireEvent.click(await screen.findByText("Orders"));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith("Couldn't select query."));
    expect(onChange).not.toHaveBeenCalled();
  });

  it("says 'Something went wrong...' when the list cannot be loaded", async () => {
    routes = { "/api/queries/recent": () => json({ message: "Broken." }, 400) };
    renderSelector();
    await screen.findByText("Something went wrong...");
  });
});
