// The text of a Prometheus query → the API call it makes. Three forms are read:
//  - plain PromQL: an instant query at the current time;
//  - Redash's query string: `query=…&start=…&end=…&step=…` (a `step` makes it a range query;
//    `end` missing or `now` means now; `time=` for an instant query at a given time);
//  - the YAML form: `query:` with optional `start`, `end`, `step` or `time` lines, where times may
//    also be relative (`-6h`, `now-1d`) and a range query without `start` covers the last hour.
import { parse as parseYaml } from "yaml";

export type PromCall =
  | { kind: "instant"; query: string; time: number | null }
  | { kind: "range"; query: string; start: number; end: number; step: string };

const DURATION_UNITS: Record<string, number> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  y: 31536000,
};
const DURATION = /^(\d+(?:\.\d+)?(?:ms|s|m|h|d|w|y))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)/g;

/** A Prometheus duration ("1h30m", "15s", "500ms") in seconds, or null when it is not one. */
export function durationSeconds(text: string): number | null {
  if (!DURATION.test(text)) return null;
  let total = 0;
  for (const match of text.matchAll(DURATION_PART)) {
    total += Number(match[1]) * DURATION_UNITS[match[2]];
  }
  return total;
}

/**
 * A time as Unix seconds: a Unix timestamp, `now`, `now-1h` / `-1h` (relative to `now`), or a date
 * (ISO 8601; a date or time without a zone is read as UTC).
 */
export function parseTime(value: unknown, name: string, now: number): number {
  if (value instanceof Date) return value.getTime() / 1000;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  const text = String(value ?? "").trim();
  if (text === "" || text === "now") return now;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const relative = /^(?:now)?\s*([+-])\s*(\S+)$/.exec(text);
  if (relative) {
    const seconds = durationSeconds(relative[2]);
    if (seconds !== null) return relative[1] === "-" ? now - seconds : now + seconds;
  }
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) || !/\d{2}:\d{2}/.test(text);
  const iso = text.includes(" ") && !text.includes("T") ? text.replace(" ", "T") : text;
  const parsed = Date.parse(zoned ? iso : `${iso}Z`);
  if (Number.isNaN(parsed)) {
    throw new Error(
      `The ${name} time "${text}" is not a time (use a Unix timestamp, an ISO 8601 date, now, or now-1h).`,
    );
  }
  return parsed / 1000;
}

function checkStep(step: string): string {
  const text = step.trim();
  if (/^\d+(\.\d+)?$/.test(text) && Number(text) > 0) return text;
  if (durationSeconds(text) !== null && durationSeconds(text)! > 0) return text;
  throw new Error(`The step "${step}" is not a duration (e.g. 60s, 5m, 1h, or seconds).`);
}

interface Parts {
  query?: unknown;
  start?: unknown;
  end?: unknown;
  step?: unknown;
  time?: unknown;
}

function callOf(parts: Parts, now: number): PromCall {
  const query = typeof parts.query === "string" ? parts.query.trim() : "";
  if (query === "") throw new Error("Query is empty: write a PromQL expression.");
  if (parts.step !== undefined && parts.step !== null && String(parts.step).trim() !== "") {
    const end = parseTime(parts.end, "end", now);
    const start =
      parts.start === undefined || parts.start === null || String(parts.start).trim() === ""
        ? end - 3600
        : parseTime(parts.start, "start", now);
    if (start > end) throw new Error("The start time is after the end time.");
    return { kind: "range", query, start, end, step: checkStep(String(parts.step)) };
  }
  if (parts.start !== undefined || parts.end !== undefined) {
    throw new Error("A range query needs a step (e.g. step=60s) besides its start and end.");
  }
  const time =
    parts.time === undefined || parts.time === null ? null : parseTime(parts.time, "time", now);
  return { kind: "instant", query, time };
}

const YAML_FORM = /^\s*query\s*:\s/;
const QUERY_STRING_FORM = /^\s*query=/;
/** Redash also read `expr&step=60s` (it put `query=` in front of a text without it). */
const BARE_QUERY_STRING = /&(start|end|step|time)=/;

/** Reads a query text in any of the three forms; `now` is Unix seconds. */
export function parsePromQuery(text: string, now = Date.now() / 1000): PromCall {
  const trimmed = text.trim();
  if (trimmed === "") throw new Error("Query is empty: write a PromQL expression.");
  if (YAML_FORM.test(trimmed)) {
    let spec: unknown;
    try {
      spec = parseYaml(trimmed);
    } catch (error) {
      throw new Error(`The query is not valid YAML: ${(error as Error).message}`, { cause: error });
    }
    if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
      throw new Error("The query should be PromQL, or YAML with a query: line.");
    }
    const known = new Set(["query", "start", "end", "step", "time"]);
    const unknown = Object.keys(spec).filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new Error(
        `Unknown key "${unknown[0]}": the YAML form takes query, start, end, step and time.`,
      );
    }
    return callOf(spec as Parts, now);
  }
  if (QUERY_STRING_FORM.test(trimmed) || BARE_QUERY_STRING.test(trimmed)) {
    const params = new URLSearchParams(
      QUERY_STRING_FORM.test(trimmed) ? trimmed : `query=${trimmed}`,
    );
    const parts: Parts = {};
    for (const key of ["query", "start", "end", "step", "time"] as const) {
      const value = params.get(key);
      if (value !== null) parts[key] = value;
    }
    return callOf(parts, now);
  }
  return callOf({ query: trimmed }, now);
}

/** The API path and form parameters of a call. */
export function callParams(call: PromCall): { path: string; form: URLSearchParams } {
  const form = new URLSearchParams({ query: call.query });
  if (call.kind === "range") {
    form.set("start", String(call.start));
    form.set("end", String(call.end));
    form.set("step", call.step);
    return { path: "api/v1/query_range", form };
  }
  if (call.time !== null) form.set("time", String(call.time));
  return { path: "api/v1/query", form };
}
