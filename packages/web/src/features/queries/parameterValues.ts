// Parameter values on the query page: saved defaults, the address (p_ keys) and pending edits.
import {
  emptyParameterNames,
  encodeParameterValue,
  missingValuesMessage,
  normalizeParameterValue,
  parameterUrlKey,
  parametersFromUrlParams,
  type ParameterDefinition,
} from "@sightline/core";

export type ParameterValues = Record<string, unknown>;

/** Values to start with: each saved default, replaced by the address's value where it has one. */
export function initialValues(
  defs: readonly ParameterDefinition[],
  search: URLSearchParams,
): ParameterValues {
  const out: ParameterValues = {};
  for (const def of defs) out[def.name] = normalizeParameterValue(def, def.value);
  return { ...out, ...parametersFromUrlParams(defs, search) };
}

/** Names whose pending value differs from the applied one. */
export function changedNames(
  defs: readonly ParameterDefinition[],
  applied: ParameterValues,
  pending: ParameterValues,
): string[] {
  return defs
    .filter((def) => Object.prototype.hasOwnProperty.call(pending, def.name))
    .filter((def) => {
      const next = encodeParameterValue(def, pending[def.name]);
      // Typed text that is not a valid value still counts: Apply then reports it as missing.
      const invalid = next === null && !isBlank(pending[def.name]);
      return invalid || next !== encodeParameterValue(def, applied[def.name]);
    })
    .map((def) => def.name);
}

/** The address with every parameter's p_ key set (or removed when empty). */
export function withParameterUrl(
  search: URLSearchParams,
  defs: readonly ParameterDefinition[],
  values: ParameterValues,
): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const def of defs) {
    const key = parameterUrlKey(def.name);
    const encoded = encodeParameterValue(def, values[def.name]);
    if (encoded === null) next.delete(key);
    else next.set(key, encoded);
  }
  return next;
}

function isBlank(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === "" ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** Why a run with these values is refused (spec 1 §5: missing values), or null when it may run. */
export function missingValuesRefusal(
  defs: readonly ParameterDefinition[],
  values: ParameterValues,
): string | null {
  const missing = emptyParameterNames(defs, values);
  return missing.length > 0 ? missingValuesMessage(missing) : null;
}

/**
 * What a Number parameter's box keeps of typed text: only what can be part of a number, so a
 * non-numeric value becomes empty (spec 1 §5) and a stray letter does not wipe the digits.
 */
export function numberInputText(text: string): string {
  return text.replace(/[^0-9.eE+-]/g, "");
}
