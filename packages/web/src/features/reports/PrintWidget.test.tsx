// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { QueryResult } from "@sightline/core";
import type { DashboardWidget } from "../../api/dashboards";
import type { PrintWidgetResult } from "../../api/reports";
import { stubMatchMedia } from "../../testing/matchMedia";
import { testWidget } from "../../testing/dashboardWidgets";
import { DID_NOT_FINISH_TEXT, NO_RESULT_TEXT, NO_ROWS_TEXT, PrintWidget } from "./PrintWidget";
import { WIDGET_BUDGET_MS } from "./reportReadiness";

const tableWidget = (id: number): DashboardWidget =>
  testWidget(id, {}, {
    visualization: {
      id: 5,
      type: "TABLE",
      name: "Table",
      description: null,
      options: {},
      created_at: "",
      updated_at: "",
      query: { id: 3, name: "Orders", options: {} },
    },
  } as Partial<DashboardWidget>);

const pinned = (rows: Record<string, unknown>[]): PrintWidgetResult => ({
  query_result: {
    id: 9,
    retrieved_at: "2026-11-28T10:00:00Z",
    data: { columns: [{ name: "n", type: "integer", friendly_name: "n" }], rows },
  } as unknown as QueryResult,
});

/** The public configuration: answered at once, or never (a server that does not answer). */
let configAnswers = true;

beforeEach(() => {
  stubMatchMedia();
  configAnswers = true;
  vi.stubGlobal("fetch", (url: string) => {
    if (url.startsWith("/api/config") && configAnswers)
      return Promise.resolve(
        new Response(JSON.stringify({ client_config: {} }), {
          headers: { "content-type": "application/json" },
        }),
      );
    return new Promise<Response>(() => undefined);
  });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderWidget(widget: DashboardWidget, result: PrintWidgetResult | undefined) {
  const onState = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { container } = render(
    <QueryClientProvider client={client}>
      <PrintWidget widget={widget} name="w" result={result} onState={onState} />
    </QueryClientProvider>,
  );
  const wrapper = () => container.querySelector<HTMLElement>("[data-report-widget]")!;
  return { onState, wrapper, state: () => wrapper().dataset.reportState };
}

describe("a widget of the print page", () => {
  it("is painted once its visualization has drawn and stayed unchanged", async () => {
    const { state, onState, wrapper } = renderWidget(tableWidget(1), pinned([{ n: 1 }]));
    expect(state()).toBe("pending");
    expect(wrapper().dataset.reportWidget).toBe("1");
    await waitFor(() => expect(state()).toBe("painted"), { timeout: 3000 });
    // The page is told in an effect after the commit that shows the state: wait for it too.
    await waitFor(() => expect(onState).toHaveBeenLastCalledWith(1, "painted", null));
    expect(wrapper().textContent).toContain("Data retrieved");
    expect(wrapper().querySelector("button")).toBeNull();
  });

  it("is empty when the result has no rows", async () => {
    const { state, onState } = renderWidget(tableWidget(2), pinned([]));
    expect(state()).toBe("empty");
    expect(screen.getByText(NO_ROWS_TEXT)).toBeTruthy();
    await waitFor(() => expect(onState).toHaveBeenCalledWith(2, "empty", null));
  });

  it("has failed, with its error shown, when its query failed or no result was kept", async () => {
    const failed = renderWidget(tableWidget(3), { error: "relation does not exist" });
    expect(failed.state()).toBe("failed");
    expect(screen.getByText("relation does not exist")).toBeTruthy();
    await waitFor(() =>
      expect(failed.onState).toHaveBeenCalledWith(3, "failed", "relation does not exist"),
    );
    cleanup();
    const missing = renderWidget(tableWidget(4), undefined);
    expect(missing.state()).toBe("failed");
    expect(screen.getByText(NO_RESULT_TEXT)).toBeTruthy();
  });

  it("draws a text box", async () => {
    const { state } = renderWidget(testWidget(6, {}, { text: "**Net** of VAT" }), undefined);
    await waitFor(() => expect(state()).toBe("painted"));
    expect(screen.getByText("Net").tagName).toBe("STRONG");
  });

  it("is drawn as did not finish once its time is up, without a spinner", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    configAnswers = false;
    const { state, onState, wrapper } = renderWidget(tableWidget(7), pinned([{ n: 1 }]));
    await act(async () => vi.advanceTimersByTime(WIDGET_BUDGET_MS - 100));
    expect(state()).toBe("pending");
    await act(async () => vi.advanceTimersByTime(200));
    expect(state()).toBe("did_not_finish");
    expect(wrapper().textContent).toContain(DID_NOT_FINISH_TEXT);
    expect(wrapper().querySelector(".ant-spin")).toBeNull();
    expect(onState).toHaveBeenLastCalledWith(7, "did_not_finish", DID_NOT_FINISH_TEXT);
  });
});
