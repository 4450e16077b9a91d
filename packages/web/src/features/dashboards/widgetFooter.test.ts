import { describe, expect, it } from "vitest";
import { widgetFooterText } from "./widgetFooter";

const now = new Date("2026-11-25T12:00:00Z");

describe("widget footer", () => {
  it("says when the result shown was updated", () => {
    expect(widgetFooterText("2026-11-25T11:59:50Z", false, now)).toBe("Updated just now");
    expect(widgetFooterText(null, false, now)).toBe("");
  });

  it("says the widget loads while its body waits for the result or its drawing", () => {
    expect(widgetFooterText("2026-11-25T11:59:50Z", false, now, false)).toBe("Loading…");
    expect(widgetFooterText(null, false, now, false)).toBe("Loading…");
  });

  it("after a failed refresh says so and gives the old result's age, not Updated", () => {
    expect(widgetFooterText("2026-11-25T11:50:00Z", true, now)).toBe(
      "Refresh failed · last result 10 minutes ago",
    );
    expect(widgetFooterText("2026-11-25T11:59:50Z", true, now)).not.toContain("Updated");
    expect(widgetFooterText(null, true, now)).toBe("Refresh failed");
  });
});
