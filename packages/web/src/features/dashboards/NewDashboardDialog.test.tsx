// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import NewDashboardDialog from "./NewDashboardDialog";
import { stubMatchMedia } from "../../testing/matchMedia";

interface Sent {
  url: string;
  body: unknown;
}

let sent: Sent[];
let answer: () => Response;

beforeEach(() => {
  sent = [];
  // The server is not part of this test: a fake fetch plays POST api/dashboards.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return answer();
  });
  stubMatchMedia();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function renderDialog() {
  const router = createMemoryRouter([
    { path: "/", element: <NewDashboardDialog open onClose={() => undefined} /> },
    { path: "/dashboards/:id", element: <Where /> },
  ]);
  render(<RouterProvider router={router} />);
}

const saveButton = () => screen.getByTestId("new-dashboard-save") as HTMLButtonElement;
const nameInput = () => screen.getByTestId("new-dashboard-name");

describe("New Dashboard dialog", () => {
  it("keeps Save disabled while the trimmed name is empty", () => {
    answer = () => new Response("{}");
    renderDialog();
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(nameInput(), { target: { value: "   " } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.keyDown(nameInput(), { key: "Enter", keyCode: 13 });
    expect(sent).toHaveLength(0);
    fireEvent.change(nameInput(), { target: { value: " Sales " } });
    expect(saveButton().disabled).toBe(false);
  });

  it("creates the dashboard on Enter with the trimmed name and opens it for editing", async () => {
    answer = () =>
      new Response(JSON.stringify({ id: 12, name: "Sales", slug: "sales" }), { status: 200 });
    renderDialog();
    fireEvent.change(nameInput(), { target: { value: "  Sales  " } });
    fireEvent.keyDown(nameInput(), { key: "Enter", keyCode: 13 });
    await waitFor(() =>
      expect(screen.getByTestId("where").textContent).toBe("/dashboards/12-sales?edit"),
    );
    expect(sent[0]).toEqual({ url: "/api/dashboards", body: { name: "Sales" } });
  });

  it("shows the server's message when creating fails", async () => {
    answer = () => new Response(JSON.stringify({ message: "Name is too long." }), { status: 400 });
    renderDialog();
    fireEvent.change(nameInput(), { target: { value: "Sales" } });
    fireEvent.click(saveButton());
    expect(await screen.findByText("Name is too long.")).toBeTruthy();
    expect(saveButton().disabled).toBe(false);
  });
});
