import { describe, expect, it } from "vitest";
import type { ReportRun } from "../../api/reports";
import {
  NOT_SCHEDULED,
  recipientsText,
  runDurationText,
  runOutcomeText,
  scheduleText,
  unfinishedWidgetsText,
} from "./subscriptionText";

const schedule = (
  interval: number | null,
  time: string | null = null,
  day: string | null = null,
) => ({
  interval,
  time,
  day_of_week: day,
  until: null,
});

describe("schedule in words", () => {
  it("says how often, at what time and on which day", () => {
    expect(scheduleText(schedule(1800))).toBe("Every 30 minutes");
    expect(scheduleText(schedule(3600))).toBe("Every hour");
    expect(scheduleText(schedule(86400, "07:30"))).toBe("Every day at 07:30 UTC");
    expect(scheduleText(schedule(604800, "07:30", "Monday"), (t) => `${t} local`)).toBe(
      "Every week at 07:30 local on Monday",
    );
    expect(scheduleText({ ...schedule(86400, "09:00"), until: "2027-01-31" })).toBe(
      "Every day at 09:00 UTC, until 2027-01-31",
    );
  });

  it("says when there is no schedule", () => {
    expect(scheduleText(null)).toBe(NOT_SCHEDULED);
    expect(scheduleText(schedule(null))).toBe(NOT_SCHEDULED);
  });
});

describe("recipients, durations and outcomes in words", () => {
  it("lists addresses and destinations by name", () => {
    expect(
      recipientsText({ emails: ["a@x.org"], destination_ids: [4, 9] }, [{ id: 4, name: "#sales" }]),
    ).toBe("a@x.org, #sales, Destination 9");
    expect(recipientsText({ emails: [], destination_ids: [] })).toBe("No recipients");
  });

  it("gives a run's length", () => {
    expect(runDurationText(null)).toBe("–");
    expect(runDurationText(850)).toBe("850 ms");
    expect(runDurationText(4200)).toBe("4.2 s");
    expect(runDurationText(65_000)).toBe("1 min 5 s");
  });

  const run = (over: Partial<ReportRun>): ReportRun => ({
    id: 1,
    subscription_id: 1,
    status: "sent",
    trigger: "manual",
    started_at: "2026-11-28T10:00:00Z",
    finished_at: null,
    duration_ms: null,
    recipients: [],
    error: null,
    widgets: [],
    has_thumbnail: false,
    ...over,
  });

  it("names the widgets a run could not draw", () => {
    expect(
      unfinishedWidgetsText(
        run({
          widgets: [
            { widget_id: 1, name: "Sales", state: "painted" },
            { widget_id: 2, name: "Map", state: "did_not_finish" },
            { widget_id: 3, name: "Orders", state: "failed", error: "timeout" },
          ],
        }),
      ),
    ).toBe("Map (did not finish), Orders (failed: timeout)");
    expect(unfinishedWidgetsText(run({}))).toBeNull();
  });

  it("says what Send now came to", () => {
    expect(runOutcomeText(run({ recipients: ["a@x.org"] }))).toBe("Sent to a@x.org.");
    expect(runOutcomeText(run({ status: "failed", error: "No browser" }))).toBe(
      "Failed: No browser",
    );
    expect(runOutcomeText(run({ status: "queued" }))).toContain("Queued");
  });
});
