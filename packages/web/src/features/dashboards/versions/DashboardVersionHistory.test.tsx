// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardDetail, DashboardWidget } from "../../../api/dashboards";
import { stubLayout } from "../../../testing/layout";
import { json } from "../../../testing/responses";
import { appProviders, sessionAnswer } from "../../queries/testAppProviders";
import { DashboardVersionHistory } from "./DashboardVersionHistory";

/** jsdom on a loaded machine: the session and the list take a moment. */
const SLOW = { timeout: 10_000 };

const textBox = (id: number, text: string, col: number, row: number) =>
  ({ id, text, options: { position: { col, row, sizeX: 3, sizeY: 4 } } }) as DashboardWidget;

const board = (version: number, widgets: DashboardWidget[]) =>
  ({
    id: 7,
    name: "Weekly",
    version,
    tags: [],
    options: {},
    widgets,
  }) as unknown as DashboardDetail;

const VERSIONS: Record<number, DashboardDetail> = {
  1: board(1, [textBox(1, "## Sales", 0, 0)]),
  2: board(2, [textBox(1, "## Sales", 0, 0), textBox(2, "## Costs", 3, 0)]),
  3: board(3, [textBox(1, "## Sales", 0, 0), textBox(2, "## Costs", 0, 4)]),
};

const entry = (version: number, name: string, changes: string[]) => ({
  version,
  created_at: new Date().toISOString(),
  user: { id: 1, name },
  changes,
});

let sent: { method: string; url: string; body: unknown }[];
let restoreAnswer: (version: number) => Response;

beforeEach(() => {
  sent = [];
  restoreAnswer = (version) => json({ ...VERSIONS[version], version: 4 });
  // Wide screens: antd's breakpoints all match, so the dialog shows its two columns.
  window.matchMedia = ((query: string) => ({
    matches: query.includes("min-width"),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
  stubLayout();
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ method, url, body });
    const path = new URL(url, "http://x").pathname;
    if (path === "/api/session") return sessionAnswer(["edit_dashboard"]);
    if (path === "/api/dashboards/7/versions") {
      return json({
        count: 3,
        page: 1,
        page_size: 20,
        results: [
          entry(3, "Bob Stone", ["widgets"]),
          entry(2, "Ann Lee", ["widgets"]),
          entry(1, "Ann Lee", ["name"]),
        ],
      });
    }
    const one = /^\/api\/dashboards\/7\/versions\/(\d+)$/.exec(path);
    if (one) return json(VERSIONS[Number(one[1])]);
    const restore = /^\/api\/dashboards\/7\/versions\/(\d+)\/restore$/.exec(path);
    if (restore && method === "POST") return restoreAnswer(Number(restore[1]));
    return json({ message: "not found" }, 404);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderHistory(onRestored = vi.fn()) {
  const { wrapper: Wrapper } = appProviders("/dashboards/7");
  render(
    <Wrapper>
      <DashboardVersionHistory
        dashboard={board(3, VERSIONS[3]!.widgets)}
        canEdit
        onRestored={onRestored}
        onClose={() => undefined}
      />
    </Wrapper>,
  );
  return onRestored;
}

const restores = () =>
  sent.filter((s) => s.method === "POST").map((s) => [new URL(s.url, "http://x").pathname, s.body]);

describe("dashboard version history", () => {
  it("sums up each version against the one before it, newest first", async () => {
    renderHistory();
    const list = await screen.findByTestId("version-list", {}, SLOW);
    await waitFor(() =>
      expect(
        within(list)
          .getAllByTestId("version-summary")
          .map((s) => s.textContent),
      ).toEqual(["1 text box moved", "1 text box added", "Dashboard created"]),
    );
    expect(within(list).getByTestId("version-3").textContent).toContain("Bob Stone");
    expect(within(list).getByTestId("version-3").textContent).toContain("Current");
    // The newest is shown first, compared with the one before it, its layout drawn small.
    const detail = screen.getByTestId("version-detail");
    await waitFor(() =>
      expect(within(detail).getByTestId("version-changes").textContent).toContain(
        'Text box "Costs" moved left 3 columns and down 4 rows',
      ),
    );
    expect(within(detail).getAllByTestId("layout-preview")).toHaveLength(2);
    expect(detail.querySelectorAll("[data-mark=moved]")).toHaveLength(1);
    expect(within(detail).getByTestId("restore-version").hasAttribute("disabled")).toBe(true);
  });

  it("restores a version with the version it replaces, then undoes it", async () => {
    const onRestored = renderHistory();
    fireEvent.click(await screen.findByTestId("version-2", {}, SLOW));
    const restore = await screen.findByTestId("restore-version");
    await waitFor(() => expect(restore.hasAttribute("disabled")).toBe(false), SLOW);
    fireEvent.click(restore);
    fireEvent.click(await screen.findByRole("button", { name: "Restore" }));
    await waitFor(() => expect(onRestored).toHaveBeenCalledTimes(1), SLOW);
    expect(onRestored.mock.calls[0]![0].version).toBe(4);
    expect(restores()).toEqual([["/api/dashboards/7/versions/2/restore", { version: 3 }]]);

    // Undo brings back the version that was current before the restore.
    restoreAnswer = (version) => json({ ...VERSIONS[version], version: 5 });
    fireEvent.click(await screen.findByTestId("undo-restore"));
    await waitFor(() => expect(onRestored).toHaveBeenCalledTimes(2), SLOW);
    expect(restores()[1]).toEqual(["/api/dashboards/7/versions/3/restore", { version: 4 }]);
    expect(await screen.findByText("Restore undone")).toBeTruthy();
  });

  it("says so when someone saved meanwhile, and changes nothing", async () => {
    restoreAnswer = () => json({ message: "modified", version: 9 }, 409);
    const onRestored = renderHistory();
    fireEvent.click(await screen.findByTestId("version-1", {}, SLOW));
    const restore = await screen.findByTestId("restore-version");
    await waitFor(() => expect(restore.hasAttribute("disabled")).toBe(false), SLOW);
    fireEvent.click(restore);
    fireEvent.click(await screen.findByRole("button", { name: "Restore" }));
    expect(await screen.findByText("Version could not be restored")).toBeTruthy();
    expect(screen.getByText(/saved by someone else meanwhile/)).toBeTruthy();
    expect(onRestored).not.toHaveBeenCalled();
  });
});
