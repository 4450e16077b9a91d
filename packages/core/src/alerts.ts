import type { AlertOptions, AlertState } from "./entities";

/**
 * Alert evaluation (api-platform.md §9.1–§9.4): which state a query result puts an alert in, and
 * whether that change is worth a notification. Pure rules; the server reads the result and sends.
 */

type Compare = (value: number | string, threshold: number | string) => boolean;

/** Redash's operators: symbols and the legacy words. Anything else never matches. */
const OPERATORS: Record<string, Compare> = {
  ">": (v, t) => v > t,
  ">=": (v, t) => v >= t,
  "<": (v, t) => v < t,
  "<=": (v, t) => v <= t,
  "==": (v, t) => v === t,
  "!=": (v, t) => v !== t,
  "greater than": (v, t) => v > t,
  "less than": (v, t) => v < t,
  equals: (v, t) => v === t,
};

const EQUALITY = new Set(["==", "!=", "equals"]);

/** A number written the way Python's float() reads it ("1", " 2.5 ", "1e3", "inf"), else null. */
export function parseAlertNumber(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return null;
  const text = value.trim().replace(/(\d)_(?=\d)/g, "$1");
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return Number(text);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (!special) return null;
  if (special[2]!.toLowerCase() === "nan") return Number.NaN;
  return special[1] === "-" ? -Infinity : Infinity;
}

function asString(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The state a single value puts an alert in (§9.3): numbers are compared as numbers, as doubles
 * like Redash's floats (a threshold that is not a finite number makes the state unknown), anything
 * else as strings; a string that does not meet an ordering condition is unknown rather than ok.
 */
export function nextAlertState(
  op: string | undefined,
  value: unknown,
  threshold: unknown,
): AlertState {
  const compare = OPERATORS[op ?? ""];
  const text = typeof value === "boolean" ? String(value) : value;
  const number = parseAlertNumber(text);
  if (number !== null) {
    const limit = parseAlertNumber(threshold);
    // The API refuses a threshold that is not finite; one stored before it did is no threshold.
    if (limit === null || !Number.isFinite(limit)) return "unknown";
    return compare?.(number, limit) ? "triggered" : "ok";
  }
  const equality = EQUALITY.has(op ?? "");
  let held: boolean;
  if (typeof threshold === "string") held = compare?.(asString(text), threshold) ?? false;
  // A string never equals a number; ordering them fails in Redash, the reference says unknown.
  else if (equality) held = op === "!=";
  else return "unknown";
  if (held) return "triggered";
  return equality ? "ok" : "unknown";
}

/** The rows of a query result as the evaluation reads them. */
export interface AlertData {
  rows: Record<string, unknown>[];
}

/**
 * The state the query's latest result puts the alert in (§9.2): unknown without a result, rows or
 * the column; `first` reads the first row, `min`/`max` the whole column as numbers.
 */
export function evaluateAlert(options: AlertOptions, data: AlertData | null): AlertState {
  const column = options.column;
  const first = data?.rows[0];
  if (!first || column === undefined || !(column in first)) return "unknown";
  let value: unknown;
  if (options.selector === "min" || options.selector === "max") {
    const numbers: number[] = [];
    for (const row of data.rows) {
      const cell = row[column];
      const number = typeof cell === "boolean" ? Number(cell) : parseAlertNumber(cell);
      if (number === null) return "unknown";
      numbers.push(number);
    }
    value = options.selector === "min" ? Math.min(...numbers) : Math.max(...numbers);
  } else {
    value = first[column];
  }
  if (value === null || value === undefined) return "unknown";
  return nextAlertState(options.op, value, options.value);
}

/** What the notify rule reads of the stored alert. */
export interface AlertNotifyState {
  state: AlertState;
  /** Seconds; 0 or null means no re-notification while triggered. */
  rearm: number | null;
  lastTriggeredAt: Date | null;
}

/**
 * Redash's `should_notify` (§9.4): on every change of state, and again while triggered once
 * `rearm` seconds have passed since the last notification.
 */
export function shouldNotifyAlert(
  alert: AlertNotifyState,
  newState: AlertState,
  now: Date,
): boolean {
  if (newState !== alert.state) return true;
  if (alert.state !== "triggered" || !alert.rearm || !alert.lastTriggeredAt) return false;
  return alert.lastTriggeredAt.getTime() + alert.rearm * 1000 < now.getTime();
}
