// The print view's header lines: the parameter values the report used and the time of its data.
import dayjs from "dayjs";
import { isPlainObject } from "@sightline/core";
import type { DashboardWidget } from "../../api/dashboards";
import type { PrintWidgetResult } from "../../api/reports";

/** Longest widget name a report gives (the dashboard's own 20 characters are too few to tell). */
export const REPORT_WIDGET_NAME_LENGTH = 120;

/**
 * The name a report gives a widget (in its list of widgets that failed or did not finish): the
 * query's name and, unless it is the default table, the visualization's; a text box's text.
 */
export function reportWidgetName(widget: Pick<DashboardWidget, "visualization" | "text">): string {
  const v = widget.visualization;
  const name = v
    ? [v.query?.name ?? v.name, v.query && v.name && v.name !== "Table" ? v.name : null]
        .filter(Boolean)
        .join(" – ")
    : (widget.text ?? "").replace(/\s+/g, " ").trim();
  return name.length > REPORT_WIDGET_NAME_LENGTH
    ? `${name.slice(0, REPORT_WIDGET_NAME_LENGTH)}…`
    : name;
}

/** One parameter value as text: lists joined, ranges as "start – end". */
export function parameterValueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.map(parameterValueText).join(", ");
  if (isPlainObject(value)) {
    const { start, end } = value as { start?: unknown; end?: unknown };
    if (start !== undefined || end !== undefined)
      return `${parameterValueText(start)} – ${parameterValueText(end)}`;
    return JSON.stringify(value);
  }
  return String(value);
}

/** "country: DE · since: 2024-01-01", or null without parameters. */
export function parametersLine(parameters: Record<string, unknown>): string | null {
  const entries = Object.entries(parameters ?? {});
  if (entries.length === 0) return null;
  return entries.map(([name, value]) => `${name}: ${parameterValueText(value)}`).join(" · ");
}

const STAMP = "YYYY-MM-DD HH:mm [UTC]Z";

/** When the pinned results were retrieved: one time, or the oldest and newest; null without any. */
export function dataTimeLine(results: Record<string, PrintWidgetResult>): string | null {
  const times = Object.values(results ?? {})
    .flatMap((r) => ("query_result" in r && r.query_result ? [r.query_result.retrieved_at] : []))
    .map((t) => dayjs(t))
    .filter((t) => t.isValid())
    .sort((a, b) => a.valueOf() - b.valueOf());
  if (times.length === 0) return null;
  const first = times[0].format(STAMP);
  const last = times[times.length - 1].format(STAMP);
  return first === last ? `Data as of ${first}` : `Data from ${first} to ${last}`;
}
