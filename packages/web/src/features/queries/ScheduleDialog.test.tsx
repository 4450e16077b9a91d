// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { ScheduleDialog } from "./ScheduleDialog";

beforeEach(() => stubMatchMedia());
afterEach(() => cleanup());

const schedule = { interval: 86_400, time: "09:00", day_of_week: null, until: null };

describe("schedule dialog wording", () => {
  it("says Refresh Schedule / Refresh every on the query page (the spec's texts)", async () => {
    render(
      <ScheduleDialog
        schedule={schedule}
        intervals={[3600, 86_400]}
        onSave={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(await screen.findByText("Refresh Schedule")).toBeTruthy();
    expect(screen.getByText("Refresh every")).toBeTruthy();
  });

  it("takes other words, as the report form's Report Schedule / Send every", async () => {
    render(
      <ScheduleDialog
        schedule={schedule}
        intervals={[3600, 86_400]}
        texts={{ title: "Report Schedule", every: "Send every" }}
        onSave={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(await screen.findByText("Report Schedule")).toBeTruthy();
    expect(screen.getByLabelText("Send every")).toBeTruthy();
    expect(screen.queryByText("Refresh Schedule")).toBeNull();
    expect(screen.queryByText("Refresh every")).toBeNull();
  });
});
