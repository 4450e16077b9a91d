// Parameter values in page addresses: `p_<name>` (query page) and `p_w<widgetId>_<name>` (widgets).
import { normalizeParameterValue, type NormalizedValue } from "./normalize";
import { isDateRangeType, isMultiValued, isPlainObject, type ParameterDefinition } from "./types";

export type UrlQuery = URLSearchParams | Readonly<Record<string, string | string[] | undefined>>;

export const DATE_RANGE_SEPARATOR = "--";

export function parameterUrlPrefix(widgetId?: number | string | null): string {
  return widgetId === undefined || widgetId === null ? "p_" : `p_w${widgetId}_`;
}

export function parameterUrlKey(name: string, widgetId?: number | string | null): string {
  return parameterUrlPrefix(widgetId) + name;
}

/** The address form of a value, or null when the value is empty (and the key should be removed). */
export function encodeParameterValue(def: ParameterDefinition, value: unknown): string | null {
  const v = normalizeParameterValue(def, value);
  if (v === null) return null;
  if (Array.isArray(v)) return JSON.stringify(v);
  if (isPlainObject(v)) return `${v.start}${DATE_RANGE_SEPARATOR}${v.end}`;
  return String(v);
}

/** Reads a value written by `encodeParameterValue` back, normalised. */
export function decodeParameterValue(def: ParameterDefinition, raw: string): NormalizedValue {
  if (isMultiValued(def)) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return normalizeParameterValue(def, parsed);
    } catch {
      // not JSON: a single plain value
    }
    return normalizeParameterValue(def, raw);
  }
  if (isDateRangeType(def.type)) {
    const parts = raw.split(DATE_RANGE_SEPARATOR);
    return normalizeParameterValue(def, parts.length === 2 ? parts : raw);
  }
  return normalizeParameterValue(def, raw);
}

function getParam(query: UrlQuery, key: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(key) ?? undefined;
  if (!Object.prototype.hasOwnProperty.call(query, key)) return undefined;
  const v = query[key];
  return Array.isArray(v) ? v[0] : v;
}

/** Address parameters for the given values; empty values map to null (remove the key). */
export function parametersToUrlParams(
  defs: readonly ParameterDefinition[],
  values: Readonly<Record<string, unknown>>,
  widgetId?: number | string | null,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const def of defs) {
    out[parameterUrlKey(def.name, widgetId)] = encodeParameterValue(def, values[def.name]);
  }
  return out;
}

/** Values found in the address, keyed by parameter name; names without a key are left out. */
export function parametersFromUrlParams(
  defs: readonly ParameterDefinition[],
  query: UrlQuery,
  widgetId?: number | string | null,
): Record<string, NormalizedValue> {
  const out: Record<string, NormalizedValue> = {};
  for (const def of defs) {
    const key = parameterUrlKey(def.name, widgetId);
    const raw = getParam(query, key);
    if (raw !== undefined) {
      out[def.name] = decodeParameterValue(def, raw);
      continue;
    }
    // Older addresses wrote ranges as two keys: p_name.start and p_name.end.
    if (isDateRangeType(def.type)) {
      const start = getParam(query, `${key}.start`);
      const end = getParam(query, `${key}.end`);
      if (start !== undefined && end !== undefined) {
        out[def.name] = normalizeParameterValue(def, [start, end]);
      }
    }
  }
  return out;
}

/** Server side: raw `p_<name>` query-string values (no definitions involved), as Redash reads them. */
export function collectParametersFromQueryString(query: UrlQuery): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string][] =
    query instanceof URLSearchParams
      ? [...query.entries()]
      : Object.entries(query).flatMap(([k, v]): [string, string][] =>
          v === undefined ? [] : [[k, Array.isArray(v) ? v[0] : v]],
        );
  for (const [key, value] of entries) {
    if (key.startsWith("p_") && key.length > 2 && !(key.slice(2) in out)) {
      out[key.slice(2)] = value;
    }
  }
  return out;
}
