// Rendering parameter values into query text (api-queries §8.3) and finding missing ones (§8.4).
import Mustache from "mustache";
import { isPlainObject, type MultiValuesOptions, type ParameterDefinition } from "./types";

/** The query text is not a valid template (e.g. an unclosed section). */
export class QueryTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QueryTemplateError";
  }
}

type Token = [string, string, number, number, Token[]?, ...unknown[]];

// A private writer whose cache is cleared after each use: query texts are unbounded in number,
// and the global Mustache cache would keep every one of them.
const writer = new Mustache.Writer();

/** Every Mustache tag, the delimiter-changing one included, opens with "{{". */
const hasTags = (text: string) => text.includes("{{");

function parseTemplate(text: string): Token[] {
  if (!hasTags(text)) return [];
  try {
    return writer.parse(text) as Token[];
  } catch (err) {
    throw new QueryTemplateError(err instanceof Error ? err.message : String(err));
  } finally {
    writer.clearCache();
  }
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** `separator.join(prefix + item + suffix)`, non-string items stringified. */
export function joinListValue(
  items: readonly unknown[],
  options?: MultiValuesOptions | null,
): string {
  const prefix = options?.prefix ?? "";
  const suffix = options?.suffix ?? "";
  const separator = options?.separator ?? ",";
  return items.map((item) => prefix + stringify(item) + suffix).join(separator);
}

/**
 * Renders `values` into the query text: list values are joined first (with the parameter's
 * multiValuesOptions when it has a definition), then the text is rendered as Mustache without
 * HTML escaping.
 */
export function renderQueryText(
  text: string,
  values: Readonly<Record<string, unknown>>,
  schema: readonly ParameterDefinition[] = [],
): string {
  // Most query texts have no parameters; they render as they are.
  if (!hasTags(text)) return text;
  parseTemplate(text);
  // A prototype-less view, so names like "constructor" never resolve to built-ins.
  const view: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) {
      const def = schema.find((d) => d.name === name);
      const options = def && isPlainObject(def.multiValuesOptions) ? def.multiValuesOptions : null;
      view[name] = joinListValue(value, options);
    } else {
      view[name] = value;
    }
  }
  try {
    return writer.render(text, view, undefined, { escape: stringify });
  } finally {
    writer.clearCache();
  }
}

/**
 * Every variable and section name the template references, deduplicated, in order of
 * appearance (dotted names keep the dot: "created_at.start").
 */
export function referencedParameterNames(text: string): string[] {
  const names: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      const [type, value] = token;
      if (type === "name" || type === "&" || type === "#") names.push(value);
      if ((type === "#" || type === "^") && Array.isArray(token[4])) visit(token[4]);
    }
  };
  visit(parseTemplate(text));
  return [...new Set(names)];
}

/** Supplied names: top-level keys, except an object value contributes "key.innerKey" for each key. */
export function suppliedParameterNames(values: Readonly<Record<string, unknown>>): string[] {
  const names: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (isPlainObject(value)) {
      for (const inner of Object.keys(value)) names.push(`${key}.${inner}`);
    } else {
      names.push(key);
    }
  }
  return names;
}

/** Names referenced by the text that have no supplied value. */
export function findMissingParameters(
  text: string,
  values: Readonly<Record<string, unknown>>,
): string[] {
  const supplied = new Set(suppliedParameterNames(values));
  return referencedParameterNames(text).filter((name) => !supplied.has(name));
}

/** The job error for missing values (api-queries §4.6 step 5). */
export function missingParametersError(names: readonly string[]): string {
  return `Missing parameter value for: ${names.join(", ")}`;
}

/** Saved default values of a schema (`options.parameters[].value`), used by scheduler and hash. */
export function savedParameterValues(
  schema: readonly ParameterDefinition[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of schema) out[def.name] = def.value ?? null;
  return out;
}
