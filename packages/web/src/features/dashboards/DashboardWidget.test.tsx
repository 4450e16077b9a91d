// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../api/dashboards";
import { DashboardWidgetCard, RESTRICTED_TEXT, widgetName } from "./DashboardWidget";

const base = {
  width: 1,
  dashboard_id: 1,
  created_at: "",
  updated_at: "",
  options: {},
};

const noop = () => {};
const props = {
  editing: false,
  canViewQuery: true,
  values: {},
  refreshToken: 0,
  onRemove: noop,
  onEditText: noop,
  onEditParameters: noop,
  ownParameters: [],
  onApplyOwn: noop,
};

afterEach(cleanup);

describe("dashboard widget cards", () => {
  it("shows a locked card for a restricted widget, with nothing of its query", () => {
    const widget = { ...base, id: 1, text: null, restricted: true } as DashboardWidget;
    render(<DashboardWidgetCard widget={widget} {...props} />);
    expect(screen.getByText(RESTRICTED_TEXT)).toBeTruthy();
    expect(RESTRICTED_TEXT).toBe(
      "This widget requires access to a data source you don't have access to.",
    );
  });

  it("renders a text box's markdown without scripts", () => {
    const widget = {
      ...base,
      id: 2,
      text: "# Title\n<script>window.bad = 1</script>",
    } as DashboardWidget;
    const { container } = render(<DashboardWidgetCard widget={widget} {...props} />);
    expect(container.querySelector("h1")?.textContent).toBe("Title");
    expect(container.querySelector("script")).toBeNull();
  });

  it("cuts names at 20 characters", () => {
    const widget = { ...base, id: 3, text: "A text box with a rather long first line" };
    expect(widgetName(widget as DashboardWidget)).toBe("A text box with a ra…");
  });
});
