// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubLayout } from "../../testing/layout";
import { json } from "../../testing/responses";
import type { QueryResultData } from "../../visualizations";
import { SessionGate } from "../../app/session";
import { sessionAnswer } from "./testAppProviders";
import { VisualizationDialog } from "./VisualizationDialog";

// The preview draws with ECharts, which jsdom cannot: this test is about the options.
vi.mock("../../visualizations/VisualizationRenderer", () => ({
  VisualizationRenderer: () => null,
}));

interface Sent {
  path: string;
  body: { options: Record<string, unknown> };
}
let sent: Sent[];

beforeEach(() => {
  sent = [];
  // The server is not part of this test: a fake fetch plays the session, the query and the save.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, "http://localhost").pathname;
    if (path === "/api/session") return sessionAnswer(["edit_query"]);
    if (path === "/api/queries/5") return json({ id: 5, visualizations: [] });
    const body = JSON.parse(String(init.body)) as Sent["body"];
    sent.push({ path, body });
    return json({ id: 9, ...body });
  });
  stubLayout();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NO_RESULT: QueryResultData = { columns: [], rows: [] };
const RESULT: QueryResultData = {
  columns: [
    { name: "status", type: "string", friendly_name: "status" },
    { name: "orders", type: "integer", friendly_name: "orders" },
  ],
  rows: [
    { status: "delivered", orders: 7 },
    { status: "returned", orders: 2 },
  ],
} as QueryResultData;

/** The dialog for a new visualization of query 5, opened before its result is there. */
async function openBeforeTheResult() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const dialog = (data: QueryResultData) => (
    <QueryClientProvider client={client}>
      <App>
        <SessionGate>
          <VisualizationDialog
            queryId={5}
            data={data}
            onSaved={vi.fn()}
            onDeleted={vi.fn()}
            onClose={vi.fn()}
          />
        </SessionGate>
      </App>
    </QueryClientProvider>
  );
  const view = render(dialog(NO_RESULT));
  await screen.findByText("X Column");
  return { resultArrives: () => act(() => view.rerender(dialog(RESULT))) };
}

async function saved(): Promise<Record<string, unknown>> {
  fireEvent.click(screen.getByTestId("save-visualization"));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]!.path).toBe("/api/visualizations");
  return sent[0]!.body.options;
}

describe("a new visualization opened before the query's result", () => {
  it("picks X and Y once the result arrives", async () => {
    const { resultArrives } = await openBeforeTheResult();
    resultArrives();
    expect((await saved()).columnMapping).toEqual({ status: "x", orders: "y" });
  });

  it("keeps the user's options: once one is changed, the result no longer picks", async () => {
    const { resultArrives } = await openBeforeTheResult();
    const horizontal = screen.getByText("Horizontal Chart").closest<HTMLElement>(".ant-space")!;
    fireEvent.click(within(horizontal).getByRole("switch"));
    resultArrives();
    const options = await saved();
    expect(options.swappedAxes).toBe(true);
    expect(options.columnMapping).toEqual({});
  });
});
