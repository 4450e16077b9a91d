// @vitest-environment jsdom
// Funnel steps as value clicks (issue 19).
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { DEFAULT_FORMATS, type DatumSelection, type QueryResultData } from "../types";
import { FunnelRenderer } from "./Renderer";

beforeEach(stubMatchMedia);
afterEach(cleanup);

const data: QueryResultData = {
  columns: [
    { name: "step", type: "string" },
    { name: "n", type: "integer" },
  ],
  rows: [
    { step: "Visit", n: 100 },
    { step: "Buy", n: 10 },
  ],
};
const options = {
  stepCol: { colName: "step", displayAs: "Step" },
  valueCol: { colName: "n", displayAs: "Users" },
};

function funnel(props: Partial<Parameters<typeof FunnelRenderer>[0]> = {}) {
  render(
    <FunnelRenderer
      name="Funnel"
      options={options}
      data={data}
      formats={DEFAULT_FORMATS}
      context="widget"
      {...props}
    />,
  );
  return (name: string) => screen.getByRole("row", { name: new RegExp(`^${name}`) });
}

describe("funnel steps as value clicks", () => {
  it("hands the step column's value; Ctrl or ⌘ adds", () => {
    const onDatumClick = vi.fn();
    const row = funnel({ onDatumClick });
    expect(row("Buy").style.cursor).toBe("pointer");
    fireEvent.click(row("Buy"), { ctrlKey: true });
    expect(onDatumClick).toHaveBeenCalledWith({
      column: "step",
      value: "Buy",
      row: { step: "Buy" },
      additive: true,
    });
  });

  it("without a callback, rows are plain; with a selection, other steps are dimmed", () => {
    const plain = funnel();
    expect(plain("Buy").style.cursor).toBe("");
    cleanup();
    const selection: DatumSelection = { columns: ["step"], has: (_c, v) => v === "Buy" };
    const row = funnel({ onDatumClick: vi.fn(), selection });
    expect(row("Buy").style.opacity).toBe("");
    expect(row("Visit").style.opacity).toBe("0.35");
  });
});
