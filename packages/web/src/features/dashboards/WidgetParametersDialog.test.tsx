// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../api/dashboards";
import { stubMatchMedia } from "../../testing/matchMedia";
import { WidgetParametersDialog } from "./WidgetParametersDialog";

beforeEach(() => stubMatchMedia());
afterEach(() => cleanup());

const widget = {
  id: 5,
  text: "",
  options: {
    parameterMappings: {
      region: { name: "region", type: "dashboard-level", mapTo: "region", value: null, title: "" },
    },
  },
  visualization: {
    id: 9,
    type: "TABLE",
    name: "Table",
    options: {},
    query: {
      id: 3,
      name: "Sales",
      options: { parameters: [{ name: "region", title: "region", type: "text", value: "EU" }] },
    },
  },
} as unknown as DashboardWidget;

describe("widget parameters dialog", () => {
  it("saves the mappings when Enter is pressed in a mapping's title field", async () => {
    const onSave = vi.fn(async () => undefined);
    const onClose = vi.fn();
    render(
      <WidgetParametersDialog
        widget={widget}
        dashboardParameters={[]}
        onSave={onSave}
        onClose={onClose}
      />,
    );
    const title = await screen.findByLabelText("Title of region");
    fireEvent.change(title, { target: { value: "Sales region" } });
    fireEvent.keyDown(title, { key: "Enter", code: "Enter", keyCode: 13 });
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      widget,
      expect.objectContaining({
        region: expect.objectContaining({ title: "Sales region", mapTo: "region" }),
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
