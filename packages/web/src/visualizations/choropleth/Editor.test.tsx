// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mergeOptions } from "../lib/merge";
import { DEFAULT_FORMATS, type Options } from "../types";
import { ChoroplethEditor } from "./Editor";
import { stubMatchMedia } from "../../testing/matchMedia";

beforeEach(() => {
  // antd's tabs measure themselves; jsdom has no layout.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  stubMatchMedia();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const data = {
  columns: [
    { name: "country", type: "string" },
    { name: "n", type: "integer" },
  ],
  rows: [{ country: "France", n: 3 }],
};

function open(options: Options) {
  const changes: Options[] = [];
  const replaced: Options[] = [];
  const view = render(
    <ChoroplethEditor
      options={options}
      data={data}
      formats={DEFAULT_FORMATS}
      onOptionsChange={(c) => changes.push(c)}
      onReplaceOptions={(o) => replaced.push(o)}
    />,
  );
  fireEvent.click(screen.getByRole("tab", { name: "Bounds" }));
  return { changes, replaced, view };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe("choropleth editor: Bounds tab", () => {
  it("shows the saved corners and saves an edited one in Redash's shape", async () => {
    const stored = {
      mapType: "countries",
      bounds: [
        [35, -10],
        [60, 30],
      ],
      keyColumn: "country",
    };
    const { changes } = open(stored);
    expect(field("North-East latitude").value).toBe("60");
    expect(field("North-East longitude").value).toBe("30");
    expect(field("South-West latitude").value).toBe("35");
    expect(field("South-West longitude").value).toBe("-10");
    fireEvent.change(field("North-East latitude"), { target: { value: "62.5" } });
    await waitFor(() => expect(changes.length).toBeGreaterThan(0));
    const saved = mergeOptions(stored, changes.at(-1));
    expect(saved.bounds).toEqual([
      [35, -10],
      [62.5, 30],
    ]);
    expect(saved.keyColumn).toBe("country");
  });

  it("unsets the bounds to show the whole map", () => {
    const { replaced } = open({
      mapType: "countries",
      bounds: [
        [35, -10],
        [60, 30],
      ],
      steps: 7,
    });
    fireEvent.click(screen.getByTestId("choropleth-bounds-reset"));
    expect(replaced).toEqual([{ mapType: "countries", steps: 7 }]);
  });

  it("leaves the fields off for maps without latitudes and longitudes", () => {
    open({ mapType: "usa" });
    expect(field("North-East latitude").disabled).toBe(true);
    expect(screen.getByText(/drawn from projected outlines/)).toBeTruthy();
  });
});
