// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mergeOptions } from "../lib/merge";
import { renderEditor, stubBrowserForEditors } from "../testing/renderEditor";
import type { Options } from "../types";
import { ChoroplethEditor } from "./Editor";

stubBrowserForEditors();

const data = {
  columns: [
    { name: "country", type: "string" },
    { name: "n", type: "integer" },
  ],
  rows: [{ country: "France", n: 3 }],
};

function open(options: Options) {
  const editor = renderEditor(ChoroplethEditor, options, data);
  editor.openTab("Bounds");
  return editor;
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
    const { onOptionsChange } = open(stored);
    expect(field("North-East latitude").value).toBe("60");
    expect(field("North-East longitude").value).toBe("30");
    expect(field("South-West latitude").value).toBe("35");
    expect(field("South-West longitude").value).toBe("-10");
    fireEvent.change(field("North-East latitude"), { target: { value: "62.5" } });
    await waitFor(() => expect(onOptionsChange).toHaveBeenCalled());
    const saved = mergeOptions(stored, onOptionsChange.mock.lastCall![0]);
    expect(saved.bounds).toEqual([
      [35, -10],
      [62.5, 30],
    ]);
    expect(saved.keyColumn).toBe("country");
  });

  it("unsets the bounds to show the whole map", () => {
    const { onReplaceOptions } = open({
      mapType: "countries",
      bounds: [
        [35, -10],
        [60, 30],
      ],
      steps: 7,
    });
    fireEvent.click(screen.getByTestId("choropleth-bounds-reset"));
    expect(onReplaceOptions.mock.calls).toEqual([[{ mapType: "countries", steps: 7 }]]);
  });

  it("leaves the fields off for maps without latitudes and longitudes", () => {
    open({ mapType: "usa" });
    expect(field("North-East latitude").disabled).toBe(true);
    expect(screen.getByText(/drawn from projected outlines/)).toBeTruthy();
  });
});
