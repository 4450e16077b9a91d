// Query safety (api-queries §2.6): text parameters can inject arbitrary SQL.

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
