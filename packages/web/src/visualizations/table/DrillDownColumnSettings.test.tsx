// @vitest-environment jsdom
// A link column's settings show the dashboards and queries the editor's host hands in, and fetch
// nothing themselves (issue 25).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { DrillDownTargetSource } from "../../components/drillDown/drillDownTargets";
import { stubBrowserForEditors } from "../testing/renderEditor";
import { DEFAULT_FORMATS, type QueryResultData } from "../types";
import { TableEditor } from "./Editor";

stubBrowserForEditors();

const data: QueryResultData = {
  columns: [{ name: "country", type: "string" }],
  rows: [{ country: "FR" }],
};
const options = { columns: [{ name: "country", displayAs: "link" }] };

function renderTable(targets: DrillDownTargetSource | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TableEditor
        options={options}
        data={data}
        formats={DEFAULT_FORMATS}
        onOptionsChange={vi.fn()}
        onReplaceOptions={vi.fn()}
        drillDownTargets={targets}
      />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByText("country"));
}

describe("a link column's target", () => {
  it("is searched in the source the editor hands in", async () => {
    const search = vi.fn<DrillDownTargetSource["search"]>(async () => [
      { type: "dashboard", id: 4, slug: "country-detail", name: "Country detail" },
    ]);
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    renderTable({ search, parameters: vi.fn(async () => []) });
    fireEvent.click(await screen.findByText("Dashboard or query"));
    await vi.waitFor(() => expect(search).toHaveBeenCalledWith("dashboard", ""));
    fireEvent.mouseDown(screen.getByRole("combobox", { name: "Target dashboard" }));
    expect(await screen.findByText("Country detail")).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("is a URL template only when the host hands in no source", async () => {
    renderTable(undefined);
    expect(await screen.findByText("URL template")).toBeTruthy();
    expect(screen.queryByText("Dashboard or query")).toBeNull();
  });
});
