// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../../api/dashboards";
import { notify } from "../../../app/notifications";
import { stubLayout } from "../../../testing/layout";
import { renderWithQueries } from "../../../testing/render";
import { json } from "../../../testing/responses";
import { DrillDownDialog } from "./DrillDownDialog";

interface Sent {
  method: string;
  path: string;
  body: unknown;
}
let sent: Sent[];
let saveStatus: number;

const link = {
  target: { type: "query", id: 5, name: "Orders" },
  parameters: { country: { column: "country", type: "text" } },
  newTab: true,
};

function widget(options: Record<string, unknown>): DashboardWidget {
  return { id: 9, text: "", options } as unknown as DashboardWidget;
}

beforeEach(() => {
  sent = [];
  saveStatus = 200;
  // The server is not part of this test: a fake fetch plays the search, the target and the save.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    const path = new URL(url, "http://localhost").pathname;
    sent.push({ method, path, body });
    if (path === "/api/queries") return json({ results: [{ id: 5, name: "Orders" }], count: 1 });
    if (path === "/api/queries/5")
      return json({ id: 5, name: "Orders", options: { parameters: [] } });
    if (path === "/api/widgets/9")
      return saveStatus === 200 ? json(body) : json({ message: "Nope." }, saveStatus);
    return json({ message: "Not found." }, 404);
  });
  stubLayout();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderDialog(options: Record<string, unknown>) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithQueries(
    <MemoryRouter>
      <DrillDownDialog
        widget={widget(options)}
        columns={["country", "sales"]}
        onClose={onClose}
        onSaved={onSaved}
      />
    </MemoryRouter>,
  );
  return { onSaved, onClose };
}

const saves = () => sent.filter((s) => s.method === "POST" && s.path === "/api/widgets/9");

describe("Drill-down dialog", () => {
  it("shows the stored link and says when the target takes no parameters", async () => {
    renderDialog({ position: { col: 1 }, drillDown: link });
    expect(
      await screen.findByText("This query has no parameters: it opens as it is."),
    ).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "Open in a new tab" })).toHaveProperty(
      "checked",
      true,
    );
  });

  it("removes the link, keeping every other option", async () => {
    const others = {
      position: { col: 1, row: 2 },
      parameterMappings: {},
      crossFilter: { enabled: false },
    };
    const { onSaved, onClose } = renderDialog({ ...others, drillDown: link });
    fireEvent.click(screen.getByRole("button", { name: "Remove Link" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(saves()).toHaveLength(1);
    expect(saves()[0]!.body).toEqual({ text: "", options: others });
    expect(onSaved).toHaveBeenCalledWith(9, others);
  });

  it("saves the link's new-tab choice with the other options", async () => {
    const { onSaved } = renderDialog({ isHidden: false, drillDown: link });
    await screen.findByText("This query has no parameters: it opens as it is.");
    fireEvent.click(screen.getByRole("checkbox", { name: "Open in a new tab" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    // The target has no parameters now: the stored mapping of one it lost is dropped.
    expect(saves()[0]!.body).toEqual({
      text: "",
      options: { isHidden: false, drillDown: { ...link, parameters: {}, newTab: false } },
    });
  });

  it("says when the save fails and stays open", async () => {
    saveStatus = 403;
    const failed = vi.spyOn(notify, "error").mockImplementation(() => {});
    const { onSaved, onClose } = renderDialog({ drillDown: link });
    fireEvent.click(screen.getByRole("button", { name: "Remove Link" }));
    await waitFor(() => expect(failed).toHaveBeenCalled());
    expect(failed.mock.calls[0]![0]).toBe("Widget could not be saved");
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("saves nothing without a target", () => {
    renderDialog({});
    expect(screen.getByRole("button", { name: "Save" })).toHaveProperty("disabled", true);
    expect(screen.queryByRole("button", { name: "Remove Link" })).toBeNull();
  });
});
