// Query safety (api-queries §2.6): text parameters can inject arbitrary SQL.
import { referencedParameterNames } from "./render";

/** A query is unsafe iff one of its parameters has type "text"; no parameters is safe. */
export function isQuerySafe(parameters: readonly { type?: unknown }[] | null | undefined): boolean {
  return !(parameters ?? []).some((p) => p.type === "text");
}

export function isQueryOptionsSafe(options: { parameters?: unknown } | null | undefined): boolean {
  const params = options?.parameters;
  if (!Array.isArray(params)) return true;
  return isQuerySafe(
    params.filter((p): p is { type?: unknown } => typeof p === "object" && p !== null),
  );
}

/**
 * A saved query is safe when its parameters are, and its text names no parameter it does not
 * define: an undefined name is checked against nothing, so it would take any text a caller
 * sends (through an embed's API key, or from a user with read-only access).
 */
export function isSavedQuerySafe(
  text: string,
  options: { parameters?: unknown } | null | undefined,
): boolean {
  if (!isQueryOptionsSafe(options)) return false;
  // Most queries have no template at all (lists present thousands of them).
  if (!text.includes("{{")) return true;
  const params = Array.isArray(options?.parameters) ? options.parameters : [];
  const defined = new Set(
    params
      .map((p: unknown) => (p && typeof p === "object" ? (p as { name?: unknown }).name : null))
      .filter((name): name is string => typeof name === "string"),
  );
  let referenced: string[];
  try {
    referenced = referencedParameterNames(text);
  } catch {
    // A malformed template renders nothing: running it fails before any value is used.
    return true;
  }
  // A date range's `.start` and `.end` belong to its definition.
  const owner = (name: string) =>
    name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;
  return referenced.every((name) => defined.has(name) || defined.has(owner(name)));
}
