// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderEditor, stubBrowserForEditors } from "../testing/renderEditor";
import type { Options, QueryResultData } from "../types";
import { ChartEditor } from "./Editor";

stubBrowserForEditors();

const data: QueryResultData = {
  columns: [
    { name: "day", type: "string" },
    { name: "sales", type: "integer" },
    { name: "costs", type: "integer" },
  ],
  rows: [
    { day: "mon", sales: 3, costs: 1 },
    { day: "tue", sales: 5, costs: 2 },
  ],
};
const line: Options = {
  globalSeriesType: "line",
  columnMapping: { day: "x", sales: "y", costs: "y" },
};

function renderChartEditor(options: Options) {
  const editor = renderEditor(ChartEditor, options, data);
  const tabs = () => screen.getAllByRole("tab").map((t) => t.textContent);
  return { ...editor, tabs, open: editor.openTab };
}

describe("the chart editor's tabs", () => {
  it("are General, the axes, Series, Colors and Data Labels; a horizontal chart swaps the axes' names", () => {
    expect(renderChartEditor(line).tabs()).toEqual([
      "General",
      "X Axis",
      "Y Axis",
      "Series",
      "Colors",
      "Data Labels",
    ]);
    cleanup();
    expect(
      renderChartEditor({ ...line, globalSeriesType: "column", swappedAxes: true }).tabs(),
    ).toEqual(["General", "Y Axis", "X Axis", "Series", "Colors", "Data Labels"]);
    expect(screen.getByText("Y Column")).toBeTruthy();
  });

  it("leave out the axes for a pie, and keep only General for a custom chart", () => {
    expect(renderChartEditor({ ...line, globalSeriesType: "pie" }).tabs()).toEqual([
      "General",
      "Series",
      "Colors",
      "Data Labels",
    ]);
    cleanup();
    expect(renderChartEditor({ ...line, globalSeriesType: "custom" }).tabs()).toEqual(["General"]);
    expect(screen.getByText("Custom code")).toBeTruthy();
  });
});

describe("the chart editor's changes", () => {
  it("Series: moving a series stores the new order as zIndex", () => {
    const { open, onOptionsChange } = renderChartEditor(line);
    open("Series");
    fireEvent.click(screen.getAllByRole("button", { name: "Move down" })[0]!);
    expect(onOptionsChange).toHaveBeenCalledWith({
      seriesOptions: { costs: { zIndex: 0 }, sales: { zIndex: 1 } },
    });
  });

  it("Y Axis: the right axis is offered, and its changes go to the second axis", () => {
    const { open, onOptionsChange } = renderChartEditor(line);
    open("Y Axis");
    expect(screen.getByText("Right Y Axis")).toBeTruthy();
    const rightName = screen.getAllByText("Name")[1]!.parentElement!.querySelector("input")!;
    fireEvent.change(rightName, { target: { value: "Costs" } });
    expect(onOptionsChange).toHaveBeenCalledWith({ yAxis: [{}, { title: { text: "Costs" } }] });
  });

  it("Colors: one colour per series, as drawn", () => {
    const { open } = renderChartEditor(line);
    open("Colors");
    const panel = within(screen.getByRole("tabpanel"));
    expect(panel.getByText("sales")).toBeTruthy();
    expect(panel.getByText("costs")).toBeTruthy();
    // The swatches show the scheme's colours as drawn, not an empty "Transparent".
    const swatches = screen.getByRole("tabpanel").querySelectorAll(".ant-color-picker-trigger");
    expect(swatches).toHaveLength(2);
    for (const swatch of swatches) expect(swatch.textContent).toMatch(/#[0-9A-Fa-f]{6}/);
  });

  it("Data Labels: the switch turns labels on", () => {
    const { open, onOptionsChange } = renderChartEditor(line);
    open("Data Labels");
    fireEvent.click(screen.getByRole("switch"));
    expect(onOptionsChange).toHaveBeenCalledWith({ showDataLabels: true });
  });
});
