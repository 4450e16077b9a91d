// The alert form's rules (spec 3 §4 Alert, §5 Alerts, §9): defaults, name, column, hints, rearm.
import type { AlertOptions } from "../../api/alerts";

export const OPERATORS = [">", ">=", "<", "<=", "==", "!="] as const;

/** New alerts start with operator >, value 1, not muted, rearm 0 (spec 3 §5; reference §9.1). */
export const NEW_ALERT_OPTIONS: AlertOptions = {
  selector: "first",
  op: ">",
  value: 1,
  muted: false,
};
export const NEW_ALERT_REARM = 0;

/**
 * Which value of the column the condition reads (reference §9.1, §9.2): the first row's, or the
 * smallest or largest over all rows. Stored alerts without one read the first row.
 */
export const SELECTORS = [
  { value: "first", label: "First row" },
  { value: "min", label: "Minimum" },
  { value: "max", label: "Maximum" },
] as const;

export type Selector = (typeof SELECTORS)[number]["value"];

export function selectorOf(options: AlertOptions): Selector {
  return options.selector === "min" || options.selector === "max" ? options.selector : "first";
}

/** How the view page names the selector. */
export function selectorLabel(options: AlertOptions): string {
  const selector = selectorOf(options);
  return SELECTORS.find((s) => s.value === selector)!.label;
}

/** The name used when the name box is left empty (spec 3 §5). */
export function defaultAlertName(queryName: string | undefined, options: AlertOptions): string {
  if (!queryName) return "New Alert";
  return `${queryName}: ${options.column ?? ""} ${options.op ?? ""} ${String(options.value ?? "")}`;
}

/** The options without the muted flag, which has its own routes. */
export function withoutMuted(options: AlertOptions): AlertOptions {
  const rest = { ...options };
  delete rest.muted;
  return rest;
}

/** The trimmed name, or the default one when it is empty. */
export function alertName(name: string, queryName: string | undefined, options: AlertOptions) {
  return name.trim() || defaultAlertName(queryName, options);
}

/** Keeps the chosen column if the new result has it, else takes the result's first (spec 3 §4). */
export function chooseColumn(current: string | undefined, columns: string[]): string | undefined {
  if (current !== undefined && columns.includes(current)) return current;
  return columns[0];
}

function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "string") return value.trim() !== "" && Number.isFinite(Number(value));
  return false;
}

export const THRESHOLD_TYPE_HINT = "Value column type doesn't match threshold type.";
export const COLUMN_TYPE_HINT = "Value column isn't supported by condition type.";

/**
 * The threshold's hint (spec 3 §5): only ordering operators need numbers; the threshold is checked
 * first, then the top row's value of the chosen column (when there is one).
 */
export function thresholdHint(op: string | undefined, threshold: unknown, topValue: unknown) {
  if (op === "==" || op === "!=") return null;
  if (!isNumeric(threshold)) return THRESHOLD_TYPE_HINT;
  if (topValue !== undefined && topValue !== null && !isNumeric(topValue)) return COLUMN_TYPE_HINT;
  return null;
}

/**
 * The chosen column's value in the query's top row, as the form shows it beside the threshold
 * (Redash's "Top row value"): "unknown" without a result, a row or a value.
 */
export function topRowValueText(topRow: Record<string, unknown> | undefined, column?: string) {
  const value = column === undefined ? undefined : topRow?.[column];
  if (value === undefined || value === null || value === "") return "unknown";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * The significant digits of a decimal numeral and the place of the first one ("0012.50" and
 * "1.25e1" both read 125 at 2), or null for what is not a decimal numeral (hex, say).
 */
function decimalDigits(text: string): { digits: string; at: number } | null {
  const match = /^\s*[+-]?(\d*)\.?(\d*)(?:e([+-]?\d+))?\s*$/i.exec(text);
  if (!match) return null;
  const [, whole = "", fraction = "", exponent = "0"] = match;
  const all = whole + fraction;
  const trimmed = all.replace(/^0+/, "");
  return {
    digits: trimmed.replace(/0+$/, ""),
    at: whole.length - (all.length - trimmed.length) + Number(exponent),
  };
}

/**
 * The threshold as sent: a number when it reads as one, else the text (reference §9.1). A number
 * with more digits than a double holds (12345678901234567890) is sent as typed: it compares the
 * same, and the form shows it unchanged when opened again instead of rounded.
 */
export function thresholdValue(text: string): number | string {
  if (!isNumeric(text)) return text;
  const number = Number(text);
  const typed = decimalDigits(text);
  const read = decimalDigits(String(number));
  if (typed && read && (typed.digits !== read.digits || (read.digits && typed.at !== read.at)))
    return text.trim();
  return number;
}

export const REARM_UNITS = [
  { name: "second", seconds: 1 },
  { name: "minute", seconds: 60 },
  { name: "hour", seconds: 3600 },
  { name: "day", seconds: 86400 },
  { name: "week", seconds: 604800 },
] as const;

export type RearmUnit = (typeof REARM_UNITS)[number]["name"];

/** Choosing "at most every" sets an hour (spec 3 §9). */
export const DEFAULT_REARM_INTERVAL = 3600;

export type RearmMode = "once" | "each" | "interval";

export function rearmMode(rearm: number | null): RearmMode {
  if (!rearm) return "once";
  return rearm === 1 ? "each" : "interval";
}

/** An interval in seconds as a count of the largest unit that divides it evenly. */
export function rearmParts(seconds: number): { count: number; unit: RearmUnit } {
  const unit = [...REARM_UNITS].reverse().find((u) => seconds % u.seconds === 0) ?? REARM_UNITS[0];
  return { count: seconds / unit.seconds, unit: unit.name };
}

export function rearmSeconds(count: number, unit: RearmUnit): number {
  return count * (REARM_UNITS.find((u) => u.name === unit)?.seconds ?? 1);
}

/** How the view page says when notifications repeat. */
export function rearmText(rearm: number | null): string {
  const mode = rearmMode(rearm);
  if (mode === "once") return "Just once, until back to normal";
  if (mode === "each") return "Each time alert is evaluated, until back to normal";
  const { count, unit } = rearmParts(rearm ?? 0);
  return `At most every ${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** Whether the alert sends its own subject and body rather than the default message. */
export function usesCustomTemplate(options: AlertOptions): boolean {
  return Boolean(options.custom_subject || options.custom_body || options.template);
}

/** The template variables the custom subject and body may use (spec 3 §3). */
export const TEMPLATE_VARIABLES = [
  "ALERT_STATUS",
  "ALERT_CONDITION",
  "ALERT_THRESHOLD",
  "ALERT_NAME",
  "ALERT_URL",
  "QUERY_NAME",
  "QUERY_URL",
  "QUERY_RESULT_VALUE",
  "QUERY_RESULT_ROWS",
  "QUERY_RESULT_COLS",
] as const;

/** Only the alert's owner or an admin edits it (api-platform.md §7.9, admin/owner). */
export function canEditAlert(
  userId: number,
  alert: { user?: { id: number } | null },
  admin: boolean,
) {
  return admin || alert.user?.id === userId;
}
