// The parameters a query text names (as Redash's editor does): writing `{{ name }}` adds one,
// deleting the last `{{ name }}` removes it, and the settings of those that stay are kept.
import { QueryTemplateError, referencedParameterNames } from "./render";
import type { ParameterDefinition } from "./types";

/**
 * The parameter names the text uses, in order of first appearance: `{{ name }}`, `{{{ name }}}`,
 * sections, and `{{ name.start }}` / `{{ name.end }}` (a range) as "name". Null when the text is
 * not a valid template yet (an unclosed tag while typing): its parameters are then left as they are.
 */
export function parameterNamesInText(text: string): string[] | null {
  let names: string[];
  try {
    names = referencedParameterNames(text);
  } catch (error) {
    if (error instanceof QueryTemplateError) return null;
    throw error;
  }
  const out = new Set<string>();
  for (const name of names) {
    // "." alone is Mustache's current item, not a parameter.
    const base = name.split(".")[0].trim();
    if (base) out.add(base);
  }
  return [...out];
}

/** A parameter found in the text: a text parameter titled with its name, without a value. */
export function textParameter(name: string): ParameterDefinition {
  return { name, title: name, type: "text", value: null, global: false };
}

/**
 * The parameter list that matches the text: definitions of names still in the text are kept as
 * they are (in their order), names new to the text are appended as text parameters, and
 * definitions of names no longer in the text are dropped. Returns the same array when nothing
 * changes, so callers can skip an update.
 */
export function parametersForText(
  text: string,
  parameters: readonly ParameterDefinition[],
): readonly ParameterDefinition[] {
  const names = parameterNamesInText(text);
  if (names === null) return parameters;
  const inText = new Set(names);
  const kept = parameters.filter((p) => inText.has(p.name));
  const known = new Set(kept.map((p) => p.name));
  const added = names.filter((name) => !known.has(name)).map(textParameter);
  if (added.length === 0 && kept.length === parameters.length) return parameters;
  return [...kept, ...added];
}
