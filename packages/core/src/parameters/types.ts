// Parameter definitions as stored in `query.options.parameters` (Redash's shape).

export const PARAMETER_TYPES = [
  "text",
  "text-pattern",
  "number",
  "enum",
  "query",
  "date",
  "datetime-local",
  "datetime-with-seconds",
  "date-range",
  "datetime-range",
  "datetime-range-with-seconds",
] as const;

export type ParameterType = (typeof PARAMETER_TYPES)[number];

/**
 * Why the parameter definitions a client sends (`options.parameters`) cannot be stored, or null:
 * a list of objects, each with a name, and a type (when given) that is one of PARAMETER_TYPES.
 */
export function parameterDefinitionsProblem(list: unknown): string | null {
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list)) return "options.parameters must be a list.";
  for (const [i, p] of list.entries()) {
    const at = `options.parameters[${i}]`;
    if (typeof p !== "object" || p === null || Array.isArray(p)) return `${at} must be an object.`;
    const { name, type } = p as Record<string, unknown>;
    if (typeof name !== "string" || name === "") return `${at}.name must be a non-empty string.`;
    if (type !== undefined && !(PARAMETER_TYPES as readonly unknown[]).includes(type)) {
      return `${at}.type must be one of ${PARAMETER_TYPES.join(", ")}.`;
    }
  }
  return null;
}

export type DateParameterType = "date" | "datetime-local" | "datetime-with-seconds";
export type DateRangeParameterType =
  "date-range" | "datetime-range" | "datetime-range-with-seconds";

export interface MultiValuesOptions {
  prefix?: string;
  suffix?: string;
  separator?: string;
}

export interface DateRangeValue {
  start: string;
  end: string;
}

/** Any JSON value a client may send as a parameter value. */
export type ParameterValue =
  | string
  | number
  | boolean
  | null
  | DateRangeValue
  | ReadonlyArray<string | number>
  | { readonly [key: string]: unknown };

export interface ParameterDefinition {
  name: string;
  title?: string;
  /** Kept as `string` because stored definitions may carry unknown types. */
  type: ParameterType | (string & {});
  value?: unknown;
  global?: boolean;
  /** Newline-separated string or a list of options (enum). */
  enumOptions?: string | string[];
  /** Source query of a query-based dropdown. */
  queryId?: number | string | null;
  /** An object here (even `{}`) enables list values for enum/query parameters. */
  multiValuesOptions?: MultiValuesOptions | null;
  /** Regular expression for `text-pattern`. */
  regex?: string;
  useCurrentDateTime?: boolean;
  locals?: unknown[];
  parentQueryId?: number;
  [key: string]: unknown;
}

export function isParameterType(type: string): type is ParameterType {
  return (PARAMETER_TYPES as readonly string[]).includes(type);
}

export function isDateType(type: string): type is DateParameterType {
  return type === "date" || type === "datetime-local" || type === "datetime-with-seconds";
}

export function isDateRangeType(type: string): type is DateRangeParameterType {
  return (
    type === "date-range" || type === "datetime-range" || type === "datetime-range-with-seconds"
  );
}

/** Multi-value mode is on when `multiValuesOptions` is an object (enum and query types). */
export function isMultiValued(def: ParameterDefinition): boolean {
  return (
    (def.type === "enum" || def.type === "query") &&
    typeof def.multiValuesOptions === "object" &&
    def.multiValuesOptions !== null
  );
}

/** Enum options as a list, accepting both stored forms (array or newline-separated string). */
export function enumOptionsList(def: Pick<ParameterDefinition, "enumOptions">): string[] {
  const raw = def.enumOptions;
  if (Array.isArray(raw)) return raw.map((o) => String(o));
  if (typeof raw === "string") return raw === "" ? [] : raw.split("\n");
  return [];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
