// Subscriptions in words (issue 28): the schedule, the format, the recipients, a run's outcome.
import { durationHumanize } from "@sightline/core";
import type { Destination } from "../../api/destinations";
import type {
  ReportFormat,
  ReportRecipients,
  ReportRun,
  ReportRunStatus,
  ReportSchedule,
  ReportWidgetState,
} from "../../api/reports";

export const FORMAT_LABELS: Record<ReportFormat, string> = {
  png: "PNG image",
  pdf: "PDF",
  csv: "CSV",
  xlsx: "XLSX",
  link: "Link only",
};

export const RUN_STATUS: Record<ReportRunStatus, { label: string; color: string }> = {
  queued: { label: "Queued", color: "default" },
  running: { label: "Running", color: "processing" },
  sent: { label: "Sent", color: "success" },
  skipped: { label: "Skipped", color: "warning" },
  failed: { label: "Failed", color: "error" },
};

export const WIDGET_STATE_LABELS: Record<ReportWidgetState, string> = {
  painted: "drawn",
  empty: "empty",
  failed: "failed",
  did_not_finish: "did not finish",
};

export const NOT_SCHEDULED = "Not scheduled: sent only with Send now";

/**
 * "Every day at 09:00", "Every week at 07:30 on Monday", "Every 30 minutes, until 2027-01-31".
 * `formatTime` turns the stored UTC time into the reader's (the dialog passes a local converter).
 */
export function scheduleText(
  schedule: ReportSchedule | null | undefined,
  formatTime: (utc: string) => string = (t) => `${t} UTC`,
): string {
  const seconds = Number(schedule?.interval ?? 0);
  if (!schedule || !Number.isFinite(seconds) || seconds <= 0) return NOT_SCHEDULED;
  let text = `Every ${durationHumanize(seconds, { omitSingleValueNumber: true })}`;
  if (schedule.time) text += ` at ${formatTime(schedule.time)}`;
  if (schedule.day_of_week) text += ` on ${schedule.day_of_week}`;
  if (schedule.until) text += `, until ${schedule.until}`;
  return text;
}

/** "ann@example.com, #sales (Slack)"; destinations unknown to the reader by their id. */
export function recipientsText(
  recipients: ReportRecipients,
  destinations: readonly Pick<Destination, "id" | "name">[] = [],
): string {
  const names = new Map(destinations.map((d) => [d.id, d.name]));
  const parts = [
    ...recipients.emails,
    ...recipients.destination_ids.map((id) => names.get(id) ?? `Destination ${id}`),
  ];
  return parts.length ? parts.join(", ") : "No recipients";
}

/** A run's length: "850 ms", "4.2 s", "1 min 5 s"; "–" while unknown. */
export function runDurationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** The widgets a run could not draw: "Sales (did not finish), Map (failed: timeout)". */
export function unfinishedWidgetsText(run: Pick<ReportRun, "widgets">): string | null {
  const bad = (run.widgets ?? []).filter(
    (w) => w.state === "failed" || w.state === "did_not_finish",
  );
  if (bad.length === 0) return null;
  return bad
    .map((w) => {
      const state = WIDGET_STATE_LABELS[w.state];
      return w.error && w.state === "failed"
        ? `${w.name} (${state}: ${w.error})`
        : `${w.name} (${state})`;
    })
    .join(", ");
}

/** What Send now's run came to, in one sentence. */
export function runOutcomeText(run: ReportRun): string {
  switch (run.status) {
    case "queued":
      return "Queued: the report waits for a worker.";
    case "running":
      return "Running: the widgets' results are being drawn.";
    case "sent":
      return run.recipients.length ? `Sent to ${run.recipients.join(", ")}.` : "Sent.";
    case "skipped":
      return run.error ? `Skipped: ${run.error}` : "Skipped.";
    case "failed":
      return `Failed: ${run.error ?? "unknown error"}`;
  }
}
