// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubLayout } from "../testing/layout";
import { renderWithQueries } from "../testing/render";
import { json } from "../testing/responses";
import { SEARCH_DEBOUNCE_MS } from "./listPage/useListAddress";
import { notify } from "../app/notifications";
import { PermissionsDialog } from "./PermissionsDialog";

const OWNER = { id: 1, name: "Olive Owner", email: "olive@example.com" };
const GRANTEE = { id: 2, name: "Gary Grantee", email: "gary@example.com" };
const OTHER = { id: 3, name: "Gina Other", email: "gina@example.com" };

interface Sent {
  method: string;
  url: string;
  body: unknown;
}
let sent: Sent[];
let acl: Record<string, unknown[]>;

beforeEach(() => {
  // The search debounce runs on fake timers, so a busy machine cannot make the test miss it.
  vi.useFakeTimers();
  sent = [];
  acl = { modify: [GRANTEE] };
  // The server is not part of this test: a fake fetch plays the ACL and user search.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ method, url, body });
    const path = new URL(url, "http://localhost").pathname;
    if (path === "/api/users") return json({ results: [OWNER, GRANTEE, OTHER], count: 3 });
    if (path === "/api/dashboards/7/acl" && method === "POST") {
      acl = { modify: [GRANTEE, OTHER] };
      return json({ id: 1 });
    }
    return json(acl);
  });
  stubLayout();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets `ms` pass on the fake clock. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
/** Runs every timer due, however late, so the fake answers and the renders they cause are done. */
const settle = () => act(() => vi.runAllTimersAsync());

function renderDialog() {
  renderWithQueries(
    <PermissionsDialog objectType="dashboards" objectId={7} ownerId={1} onClose={vi.fn()} />,
  );
}

const userSearches = () => sent.filter((s) => s.url.includes("/api/users"));

describe("Manage Permissions", () => {
  it("searches once per pause, offers neither the owner nor existing grantees, and grants edit access", async () => {
    renderDialog();
    await settle();
    expect(screen.getByText("Gary Grantee")).toBeTruthy();
    const search = screen.getByRole("combobox");
    for (const text of ["g", "gi", "gin"]) {
      fireEvent.change(search, { target: { value: text } });
      await pass(SEARCH_DEBOUNCE_MS - 1);
    }
    expect(userSearches()).toHaveLength(0);
    await pass(1);
    await settle();
    expect(screen.getByText("Gina Other <gina@example.com>")).toBeTruthy();
    expect(userSearches()).toHaveLength(1);
    expect(userSearches()[0].url).toContain("q=gin");
    expect(screen.queryByText("Olive Owner <olive@example.com>")).toBeNull();
    expect(screen.queryByText("Gary Grantee <gary@example.com>")).toBeNull();

    fireEvent.click(screen.getByText("Gina Other <gina@example.com>"));
    await settle();
    expect(sent).toContainEqual({
      method: "POST",
      url: "/api/dashboards/7/acl",
      body: { access_type: "modify", user_id: 3 },
    });
    expect(screen.getByText("Gina Other")).toBeTruthy();
  });

  it("says in the spec's words when the list, a grant or a removal fails", async () => {
    const errors = vi.spyOn(notify, "error").mockImplementation(() => undefined);
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, "http://localhost").pathname;
      if (path === "/api/users") return json({ results: [OTHER], count: 1 });
      if (init.method === "POST" || init.method === "DELETE")
        return json({ message: "Only the owner may change this." }, 403);
      return json(acl);
    });
    renderDialog();
    await settle();
    fireEvent.change(screen.getByRole("combobox"), { target: { value: "gin" } });
    await pass(SEARCH_DEBOUNCE_MS);
    await settle();
    fireEvent.click(screen.getByText("Gina Other <gina@example.com>"));
    await settle();
    expect(errors).toHaveBeenCalledWith(
      "Could not grant permission to the user",
      "Only the owner may change this.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Remove" }));
    await settle();
    expect(errors).toHaveBeenCalledWith(
      "Could not remove permission from the user",
      "Only the owner may change this.",
    );
    errors.mockRestore();
  });

  it("shows 'Failed to load grantees list' when the list cannot be read", async () => {
    vi.stubGlobal("fetch", async () => json({ message: "Dashboard not found." }, 404));
    renderDialog();
    await settle();
    expect(screen.getByText("Failed to load grantees list")).toBeTruthy();
    expect(screen.getByText("Dashboard not found.")).toBeTruthy();
  });

  it("says so when nobody has been granted access yet", async () => {
    acl = {};
    renderDialog();
    await settle();
    expect(screen.getByText("No users have edit access to this dashboard yet.")).toBeTruthy();
  });
});
