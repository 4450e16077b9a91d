// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { DEFAULT_FORMATS, type Options, type QueryResultData } from "../types";
import { ChartEditor } from "./Editor";

beforeEach(() => {
  stubMatchMedia();
  // jsdom has none; antd's tabs measure themselves with it.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

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

function renderEditor(options: Options) {
  const onOptionsChange = vi.fn();
  const onReplaceOptions = vi.fn();
  render(
    <ChartEditor
      options={options}
      data={data}
      formats={DEFAULT_FORMATS}
      onOptionsChange={onOptionsChange}
      onReplaceOptions={onReplaceOptions}
    />,
  );
  const tabs = () => screen.getAllByRole("tab").map((t) => t.textContent);
  const open = (name: string) => fireEvent.click(screen.getByRole("tab", { name }));
  return { onOptionsChange, onReplaceOptions, tabs, open };
}

describe("the chart editor's tabs", () => {
  it("are General, the axes, Series, Colors and Data Labels; a horizontal chart swaps the axes' names", () => {
    expect(renderEditor(line).tabs()).toEqual([
      "General",
      "X Axis",
      "Y Axis",
      "Series",
      "Colors",
      "Data Labels",
    ]);
    cleanup();
    expect(renderEditor({ ...line, globalSeriesType: "column", swappedAxes: true }).tabs()).toEqual(
      ["General", "Y Axis", "X Axis", "Series", "Colors", "Data Labels"],
    );
    expect(screen.getByText("Y Column")).toBeTruthy();
  });

  it("leave out the axes for a pie, and keep only General for a custom chart", () => {
    expect(renderEditor({ ...line, globalSeriesType: "pie" }).tabs()).toEqual([
      "General",
      "Series",
      "Colors",
      "Data Labels",
    ]);
    cleanup();
    expect(renderEditor({ ...line, globalSeriesType: "custom" }).tabs()).toEqual(["General"]);
    expect(screen.getByText("Custom code")).toBeTruthy();
  });
});

describe("the chart editor's changes", () => {
  it("Series: moving a series stores the new order as zIndex", () => {
    const { open, onOptionsChange } = renderEditor(line);
    open("Series");
    fireEvent.click(screen.getAllByRole("button", { name: "Move down" })[0]!);
    expect(onOptionsChange).toHaveBeenCalledWith({
      seriesOptions: { costs: { zIndex: 0 }, sales: { zIndex: 1 } },
    });
  });

  it("Y Axis: the right axis is offered, and its changes go to the second axis", () => {
    const { open, onOptionsChange } = renderEditor(line);
    open("Y Axis");
    expect(screen.getByText("Right Y Axis")).toBeTruthy();
    const rightName = screen.getAllByText("Name")[1]!.parentElement!.querySelector("input")!;
    fireEvent.change(rightName, { target: { value: "Costs" } });
    expect(onOptionsChange).toHaveBeenCalledWith({ yAxis: [{}, { title: { text: "Costs" } }] });
  });

  it("Colors: one colour per series, as drawn", () => {
    const { open } = renderEditor(line);
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
    const { open, onOptionsChange } = renderEditor(line);
    open("Data Labels");
    fireEvent.click(screen.getByRole("switch"));
    expect(onOptionsChange).toHaveBeenCalledWith({ showDataLabels: true });
  });
});
