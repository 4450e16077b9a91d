// Server-side validation of supplied values against a query's parameter schema (api-queries §8.2).
import { enumOptionsList, isPlainObject, type ParameterDefinition } from "./types";

/** Thrown by a `queryOptions` callback when the dropdown's source query has no data source. */
export class DetachedDropdownQueryError extends Error {
  constructor() {
    super("This query is detached from any data source. Please select a different query.");
    this.name = "DetachedDropdownQueryError";
  }
}

export interface ValidationContext {
  /**
   * Allowed values of a `query` parameter: the `value`s of its source query's dropdown values.
   * May throw DetachedDropdownQueryError (passed on to the caller); any other failure makes the
   * value invalid.
   */
  queryOptions?: (def: ParameterDefinition) => readonly string[];
}

export interface ValidationResult {
  ok: boolean;
  /** Every invalid name, in the order supplied. */
  invalid: string[];
}

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Date/time strings the server accepts: ISO-like dates with optional time and zone. */
const DATE_RE =
  /^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;

export function isValidDateString(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const s = value.trim();
  if (!DATE_RE.test(s)) return false;
  const [y, m, d] = s.split(/[-T ]/).map(Number);
  if (m < 1 || m > 12 || d < 1) return false;
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > daysInMonth) return false;
  const time = /[ T](\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(s);
  if (time && (Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59)) {
    return false;
  }
  return true;
}

function isValidNumber(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && NUMBER_RE.test(value.trim());
}

function isValidPattern(regex: unknown, value: unknown): boolean {
  if (typeof value !== "string" || typeof regex !== "string") return false;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${regex})$`);
  } catch {
    return false;
  }
  return re.test(value);
}

function isValidChoice(
  def: ParameterDefinition,
  value: unknown,
  options: readonly string[],
): boolean {
  const allowsList = isPlainObject(def.multiValuesOptions);
  const inOptions = (v: unknown) => isScalar(v) && options.includes(String(v));
  if (Array.isArray(value)) return allowsList && value.every(inOptions);
  return inOptions(value);
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function isValidValue(def: ParameterDefinition, value: unknown, ctx: ValidationContext): boolean {
  switch (def.type) {
    case "text":
      return typeof value === "string";
    case "text-pattern":
      return isValidPattern(def.regex, value);
    case "number":
      return isValidNumber(value);
    case "enum":
      return isValidChoice(def, value, enumOptionsList(def));
    case "query": {
      if (!ctx.queryOptions) return false;
      return isValidChoice(def, value, ctx.queryOptions(def));
    }
    case "date":
    case "datetime-local":
    case "datetime-with-seconds":
      return isValidDateString(value);
    case "date-range":
    case "datetime-range":
    case "datetime-range-with-seconds":
      return isPlainObject(value) && isValidDateString(value.start) && isValidDateString(value.end);
    default:
      return false;
  }
}

/**
 * Validates supplied values. With an empty schema (ad-hoc execution, /refresh) every value is
 * accepted. Otherwise each supplied name needs a definition and a value valid for its type.
 */
export function validateParameters(
  schema: readonly ParameterDefinition[],
  values: Readonly<Record<string, unknown>>,
  ctx: ValidationContext = {},
): ValidationResult {
  if (schema.length === 0) return { ok: true, invalid: [] };
  const byName = new Map(schema.map((d) => [d.name, d]));
  const invalid: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const def = byName.get(name);
    let valid = false;
    if (def) {
      try {
        valid = isValidValue(def, value, ctx);
      } catch (err) {
        if (err instanceof DetachedDropdownQueryError) throw err;
        valid = false;
      }
    }
    if (!valid) invalid.push(name);
  }
  return { ok: invalid.length === 0, invalid };
}

/** The 400 message for invalid values (api-queries §4.6 step 3). */
export function invalidParametersMessage(names: readonly string[]): string {
  return `The following parameter values are incompatible with their definitions: ${names.join(", ")}`;
}
