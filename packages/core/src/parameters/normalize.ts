// Client-side normalisation of parameter values (what the editor keeps and what it sends).
import dayjs, { type Dayjs } from "dayjs";
import {
  DATE_FORMATS,
  isDynamicDate,
  isDynamicDateRange,
  resolveDynamicDate,
  resolveDynamicDateRange,
  toDayjs,
  type ResolveOptions,
} from "./dynamicDates";
import {
  enumOptionsList,
  isDateRangeType,
  isDateType,
  isMultiValued,
  isPlainObject,
  type DateRangeValue,
  type ParameterDefinition,
} from "./types";

/** A normalised value: null means "empty". */
export type NormalizedValue =
  string | number | string[] | (string | number)[] | DateRangeValue | null;

/** A written date (and time): the fields it names. */
const WRITTEN_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * dayjs rolls impossible dates over (2026-13-45 becomes 2027-02-14): a typo in the address
 * would show, and run, another date. A written date is real when its fields come back unchanged.
 */
function sameFields(written: string, d: Dayjs): boolean {
  const match = WRITTEN_DATE.exec(written);
  if (!match) return true;
  const [, year, month, day, hour = "00", minute = "00", second = "00"] = match;
  return (
    d.year() === Number(year) &&
    d.month() + 1 === Number(month) &&
    d.date() === Number(day) &&
    d.hour() === Number(hour) &&
    d.minute() === Number(minute) &&
    d.second() === Number(second)
  );
}

/** Parses a date the way the client does; null when invalid or impossible. */
export function parseDateValue(value: unknown): Dayjs | null {
  if (value instanceof Date || typeof value === "number") {
    const d = dayjs(value);
    return d.isValid() ? d : null;
  }
  if (typeof value !== "string" || value.trim() === "") return null;
  const written = value.trim();
  const d = dayjs(written);
  return d.isValid() && sameFields(written, d) ? d : null;
}

function normalizeText(value: unknown): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

function normalizeNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  // An empty field means "no value", not zero.
  if (typeof value !== "string" || value.trim() === "") return null;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : null;
}

function normalizeEnum(def: ParameterDefinition, value: unknown): string | string[] | null {
  const options = enumOptionsList(def);
  if (options.length === 0) return null;
  if (isMultiValued(def)) {
    const wanted = (Array.isArray(value) ? value : [value]).map((v) => String(v));
    const kept = options.filter((o) => wanted.includes(o));
    // Keep the caller's order, without duplicates.
    const ordered = [...new Set(wanted)].filter((v) => kept.includes(v));
    return ordered.length === 0 ? null : ordered;
  }
  if (value === null || value === undefined || value === "" || Array.isArray(value)) {
    return options[0];
  }
  const s = String(value);
  return options.includes(s) ? s : options[0];
}

function normalizeQueryDropdown(
  def: ParameterDefinition,
  value: unknown,
): string | number | (string | number)[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value) && value.length === 0) return null;
  const scalar = (v: unknown): string | number => (typeof v === "number" ? v : String(v));
  if (isMultiValued(def)) {
    return (Array.isArray(value) ? value : [value]).map(scalar);
  }
  return scalar(Array.isArray(value) ? value[0] : value);
}

function normalizeDate(def: ParameterDefinition, value: unknown): string | null {
  if (isDynamicDate(value)) return value;
  const d = parseDateValue(value);
  return d ? d.format(DATE_FORMATS[def.type as keyof typeof DATE_FORMATS]) : null;
}

function normalizeDateRange(
  def: ParameterDefinition,
  value: unknown,
): string | DateRangeValue | null {
  if (isDynamicDateRange(value)) return value;
  let pair: unknown = value;
  if (isPlainObject(value)) pair = [value.start, value.end];
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const start = parseDateValue(pair[0]);
  const end = parseDateValue(pair[1]);
  if (!start || !end) return null;
  const format = DATE_FORMATS[def.type as keyof typeof DATE_FORMATS];
  return { start: start.format(format), end: end.format(format) };
}

/**
 * Normalises a raw value for a parameter definition (spec 1 §5 table).
 * Dynamic date values ("d_now", "d_last_7_days") are kept as they are.
 */
export function normalizeParameterValue(def: ParameterDefinition, value: unknown): NormalizedValue {
  const type = def.type;
  if (type === "number") return normalizeNumber(value);
  if (type === "enum") return normalizeEnum(def, value);
  if (type === "query") return normalizeQueryDropdown(def, value);
  if (isDateType(type)) return normalizeDate(def, value);
  if (isDateRangeType(type)) return normalizeDateRange(def, value);
  return normalizeText(value);
}

export function isEmptyParameterValue(def: ParameterDefinition, value: unknown): boolean {
  return normalizeParameterValue(def, value) === null;
}

/**
 * The value sent for execution: dynamic dates are resolved against `now`; an empty date
 * parameter with `useCurrentDateTime` takes the current time.
 */
export function executionValue(
  def: ParameterDefinition,
  value: unknown,
  now: Date,
  options: ResolveOptions = {},
): NormalizedValue {
  const normalized = normalizeParameterValue(def, value);
  const type = def.type;
  if (isDateType(type)) {
    if (normalized === null) {
      return def.useCurrentDateTime ? toDayjs(now, options).format(DATE_FORMATS[type]) : null;
    }
    return resolveDynamicDate(normalized, type, now, options) ?? normalized;
  }
  if (isDateRangeType(type)) {
    return resolveDynamicDateRange(normalized, type, now, options) ?? normalized;
  }
  return normalized;
}

/**
 * Execution values for every definition, keyed by name. Empty values are left out, so the
 * server reports them as missing.
 */
export function executionValues(
  defs: readonly ParameterDefinition[],
  values: Readonly<Record<string, unknown>>,
  now: Date,
  options: ResolveOptions = {},
): Record<string, Exclude<NormalizedValue, null>> {
  const out: Record<string, Exclude<NormalizedValue, null>> = {};
  for (const def of defs) {
    const raw = Object.prototype.hasOwnProperty.call(values, def.name)
      ? values[def.name]
      : def.value;
    const v = executionValue(def, raw, now, options);
    if (v !== null) out[def.name] = v;
  }
  return out;
}

/** Names of parameters that have no usable value (client check before executing). */
export function emptyParameterNames(
  defs: readonly ParameterDefinition[],
  values: Readonly<Record<string, unknown>>,
): string[] {
  return defs
    .filter((def) => {
      const raw = Object.prototype.hasOwnProperty.call(values, def.name)
        ? values[def.name]
        : def.value;
      if (isDateType(def.type) && def.useCurrentDateTime) return false;
      return isEmptyParameterValue(def, raw);
    })
    .map((def) => def.name);
}

/** Client message for a run refused because of empty parameters (spec 1 §5). */
export function missingValuesMessage(names: readonly string[]): string {
  return `missing value(s) for ${names.join(", ")} parameter(s).`;
}
