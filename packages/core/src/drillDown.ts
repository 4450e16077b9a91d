// Drill-down links (issue 19): a click on a widget's value, or a table cell, opens another
// dashboard or query with the clicked row's values as its parameters (`p_<name>=`).
//
// Stored as extra keys that Redash ignores, so Redash clients still read and write them unchanged:
//   widget.options.drillDown            = DrillDownLink
//   TABLE column option `drillDown`     = DrillDownLink (the column shows a link per row)
// where a DrillDownLink is
//   { target: { type: "dashboard", id, slug?, name? } | { type: "query", id, name? },
//     parameters: { <target parameter name>: { column: <clicked column>, type: <its type> } },
//     newTab: boolean }
// The target parameter's type is kept beside the column because the value's address form depends
// on it (a date range takes "start--end"), and the click should not have to load the target first.
import dayjs, { type Dayjs } from "dayjs";
import utc from "dayjs/plugin/utc";
import {
  DATE_FORMATS,
  DATE_RANGE_SEPARATOR,
  encodeParameterValue,
  isDateRangeType,
  isDateType,
  parameterUrlKey,
} from "./parameters";

dayjs.extend(utc);

export type DrillDownTarget =
  | { type: "dashboard"; id: number; slug?: string; name?: string }
  | { type: "query"; id: number; name?: string };

/** Where a target parameter's value comes from: a column of the clicked row. */
export interface DrillDownParameter {
  column: string;
  /** The target parameter's type when the link was set up; decides the address form. */
  type?: string;
}

export interface DrillDownLink {
  target: DrillDownTarget;
  /** Target parameter name → the column whose value it takes. Unmapped parameters keep their own value. */
  parameters: Record<string, DrillDownParameter>;
  newTab: boolean;
}

/** The key in widget options and in table column options. */
export const DRILL_DOWN_KEY = "drillDown";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function positiveId(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function readTarget(value: unknown): DrillDownTarget | null {
  if (!isRecord(value)) return null;
  const id = positiveId(value.id);
  if (id === null) return null;
  const name = typeof value.name === "string" && value.name !== "" ? value.name : undefined;
  if (value.type === "query") return name ? { type: "query", id, name } : { type: "query", id };
  if (value.type !== "dashboard") return null;
  const target: DrillDownTarget = { type: "dashboard", id };
  if (typeof value.slug === "string" && value.slug !== "") target.slug = value.slug;
  if (name) target.name = name;
  return target;
}

function readParameters(value: unknown): Record<string, DrillDownParameter> {
  const out: Record<string, DrillDownParameter> = {};
  if (!isRecord(value)) return out;
  for (const [name, entry] of Object.entries(value)) {
    if (name === "") continue;
    // A bare column name is accepted too (the shape a hand-written option would most likely take).
    if (typeof entry === "string" && entry !== "") out[name] = { column: entry };
    else if (isRecord(entry) && typeof entry.column === "string" && entry.column !== "") {
      out[name] =
        typeof entry.type === "string" && entry.type !== ""
          ? { column: entry.column, type: entry.type }
          : { column: entry.column };
    }
  }
  return out;
}

/** A stored link read defensively: null when there is no usable target; bad entries are dropped. */
export function readDrillDownLink(value: unknown): DrillDownLink | null {
  if (!isRecord(value)) return null;
  const target = readTarget(value.target);
  if (!target) return null;
  return { target, parameters: readParameters(value.parameters), newTab: value.newTab === true };
}

/** The drill-down link of a widget (its `options.drillDown`), or null. */
export function readWidgetDrillDown(options: unknown): DrillDownLink | null {
  return isRecord(options) ? readDrillDownLink(options[DRILL_DOWN_KEY]) : null;
}

/** Options with the link set (or removed when null), every other key kept as it was. */
export function withDrillDown<T extends Record<string, unknown>>(
  options: T,
  link: DrillDownLink | null,
): T {
  const next: Record<string, unknown> = { ...options };
  if (link) next[DRILL_DOWN_KEY] = link;
  else delete next[DRILL_DOWN_KEY];
  return next as T;
}

/** The target's page address, without parameters. */
export function drillDownTargetPath(target: DrillDownTarget): string {
  if (target.type === "query") return `/queries/${target.id}`;
  const slug = target.slug ? `-${encodeURIComponent(target.slug)}` : "";
  return `/dashboards/${target.id}${slug}`;
}

// --- values ---------------------------------------------------------------------------------

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A clicked date as the wall-clock time the user saw: visualizations hold result dates as UTC
 * Dates (and epoch numbers as UTC), and ISO text keeps its written time.
 */
function clickedDate(value: unknown): Dayjs | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : dayjs.utc(value);
  if (typeof value === "number") return Number.isFinite(value) ? dayjs.utc(value) : null;
  if (typeof value !== "string") return null;
  const s = value.trim();
  if (!ISO_LIKE.test(s)) return null;
  // A time zone written in the text is honoured; a bare time is taken as written.
  const d = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? dayjs.utc(s) : dayjs.utc(s.replace(" ", "T"));
  return d.isValid() ? d : null;
}

function plainText(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : dayjs.utc(value).format("YYYY-MM-DD HH:mm:ss");
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The address value a target parameter of `type` takes from a clicked value, or null for none
 * (the parameter then keeps the target's own value). Dates are written as the type expects
 * (YYYY-MM-DD, YYYY-MM-DD HH:mm, …); a date range becomes the clicked value's whole day.
 */
export function drillDownParameterValue(type: string | undefined, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (type && isDateType(type)) {
    const d = clickedDate(value);
    return d ? d.format(DATE_FORMATS[type]) : null;
  }
  if (type && isDateRangeType(type)) {
    const d = clickedDate(value);
    if (!d) return null;
    const format = DATE_FORMATS[type];
    return `${d.startOf("day").format(format)}${DATE_RANGE_SEPARATOR}${d.endOf("day").format(format)}`;
  }
  if (type === "number") return encodeParameterValue({ name: "", type }, value);
  return plainText(value);
}

/**
 * The target's address for a clicked row: `p_<name>=<value>` for each mapped parameter whose
 * column has a value in `row` (dashboard-level parameters on dashboards, the query's own on queries).
 */
export function drillDownHref(link: DrillDownLink, row: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams();
  for (const [name, { column, type }] of Object.entries(link.parameters)) {
    if (!Object.prototype.hasOwnProperty.call(row, column)) continue;
    const value = drillDownParameterValue(type, row[column]);
    if (value !== null) search.set(parameterUrlKey(name), value);
  }
  const query = search.toString();
  return drillDownTargetPath(link.target) + (query ? `?${query}` : "");
}
