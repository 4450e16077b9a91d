// The text behind `Query.query_hash` (api-queries §6.2): the server takes the MD5 of the result.
import { renderQueryText, savedParameterValues } from "./parameters/render";
import type { ParameterDefinition } from "./parameters/types";
import { validateParameters, type ValidationContext } from "./parameters/validate";
import { applyAutoLimit, normalizeForHash } from "./queryText";

export interface QueryHashInput {
  text: string;
  parameters?: readonly ParameterDefinition[];
  applyAutoLimit?: boolean;
  /** The data source's runner: null when the query has no data source. */
  runner: { supportsAutoLimit: boolean } | null;
  /** Dropdown options for `query` parameters, as for validation. */
  validation?: ValidationContext;
}

/**
 * Saved defaults rendered in (raw text when they fail validation), then the runner's auto-limit
 * step, then hash normalisation. Without a data source the text is used as it is.
 */
export function queryHashSource(input: QueryHashInput): string {
  if (input.runner === null) return normalizeForHash(input.text);
  let text = input.text;
  const schema = input.parameters ?? [];
  if (schema.length > 0) {
    const values = savedParameterValues(schema);
    try {
      if (validateParameters(schema, values, input.validation).ok) {
        text = renderQueryText(text, values, schema);
      }
    } catch {
      // Invalid template or detached dropdown: hash the raw text.
    }
  }
  if (input.runner.supportsAutoLimit) text = applyAutoLimit(text, input.applyAutoLimit === true);
  return normalizeForHash(text);
}
