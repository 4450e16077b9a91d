// @vitest-environment jsdom
import { act, cleanup, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { http } from "../../api/http";
import { stubLayout } from "../../testing/layout";
import { renderWithQueries } from "../../testing/render";
import { json } from "../../testing/responses";
import PublicDashboardPage, { PUBLIC_NOT_FOUND } from "./PublicDashboardPage";

interface Sent {
  path: string;
  authorization: string | null;
}
let sent: Sent[];
let config: () => Promise<Response>;
let board: () => Response;

const configAnswer = (disablePublicUrls: boolean) => () =>
  Promise.resolve(json({ org_slug: "default", client_config: { disablePublicUrls } }));

beforeEach(() => {
  // Fake timers: the fake answers settle on the fake clock, whatever the machine's load.
  vi.useFakeTimers();
  sent = [];
  config = configAnswer(false);
  // The server is not part of this test: a fake fetch plays api/config and the public dashboard.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, "http://localhost").pathname;
    const headers = new Headers(init.headers);
    sent.push({ path, authorization: headers.get("Authorization") });
    if (path === "/api/config") return config();
    return board();
  });
  stubLayout();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  http.setApiKey(null);
});

async function renderPage() {
  const router = createMemoryRouter(
    [{ path: "/public/dashboards/:token", element: <PublicDashboardPage /> }],
    { initialEntries: ["/public/dashboards/secret"] },
  );
  const view = renderWithQueries(<RouterProvider router={router} />);
  // Lets the fake answers arrive and the page render them.
  await act(() => vi.advanceTimersByTimeAsync(1000));
  return view;
}

describe("Public dashboard page", () => {
  it("renders nothing while the configuration loads", async () => {
    config = () => new Promise(() => undefined);
    const { container } = await renderPage();
    expect(container.innerHTML).toBe("");
    expect(sent.map((s) => s.path)).toEqual(["/api/config"]);
  });

  it("renders nothing, and asks for nothing more, when public URLs are disabled", async () => {
    config = configAnswer(true);
    const { container } = await renderPage();
    expect(container.innerHTML).toBe("");
    expect(sent.map((s) => s.path)).toEqual(["/api/config"]);
  });

  it("shows the not-found card for a wrong or withdrawn token", async () => {
    board = () => json({ message: "Please login" }, 404);
    await renderPage();
    expect(screen.getByTestId("public-dashboard-not-found").textContent).toContain(
      PUBLIC_NOT_FOUND,
    );
  });

  it("loads the dashboard with the token as its API key, with a footer credit", async () => {
    board = () =>
      json({
        name: "Shop",
        dashboard_filters_enabled: false,
        options: {},
        widgets: [{ id: 1, width: 1, text: "Hello **there**", options: {} }],
      });
    await renderPage();
    expect(screen.getByTestId("dashboard-title").textContent).toBe("Shop");
    expect(screen.getByTestId("public-dashboard-footer").textContent).toContain("Powered by");
    expect(sent.find((s) => s.path === "/api/dashboards/public/secret")?.authorization).toBe(
      "Key secret",
    );
    expect(screen.queryByRole("button", { name: "Widget menu" })).toBeNull();
  });
});
