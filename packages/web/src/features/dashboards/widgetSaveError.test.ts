import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import { WIDGET_GONE_TEXT, isWidgetGone, widgetErrorText } from "./widgetSaveError";

describe("widget call errors", () => {
  it("a 404 says the widget was removed elsewhere, not the server's generic text", () => {
    const gone = new ApiError(404, "The requested URL was not found on the server.", null);
    expect(isWidgetGone(gone)).toBe(true);
    expect(widgetErrorText(gone)).toBe(WIDGET_GONE_TEXT);
  });

  it("other failures keep their message", () => {
    const denied = new ApiError(403, "You do not have permission.", null);
    expect(isWidgetGone(denied)).toBe(false);
    expect(widgetErrorText(denied)).toBe("You do not have permission.");
    expect(widgetErrorText(new Error("boom"))).toBe("boom");
    expect(widgetErrorText("odd")).toBe("");
  });
});
