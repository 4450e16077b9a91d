// A drill-down link while it is being set up: the form's state, and the link it saves.
import type { DrillDownLink, DrillDownParameter, DrillDownTarget } from "@sightline/core";
import type { TargetParameter, TargetType } from "./drillDownTargets";

export interface DrillDownDraft {
  targetType: TargetType;
  target: DrillDownTarget | null;
  /** Target parameter name → the column it takes its value from (with the type last known). */
  parameters: Record<string, DrillDownParameter>;
  newTab: boolean;
}

export function draftFromLink(link: DrillDownLink | null): DrillDownDraft {
  if (!link) return { targetType: "dashboard", target: null, parameters: {}, newTab: false };
  return {
    targetType: link.target.type,
    target: link.target,
    parameters: link.parameters,
    newTab: link.newTab,
  };
}

/**
 * The link to store, or null when no target is chosen. With the target's parameters loaded, each
 * mapping takes the parameter's current type and mappings of parameters it no longer has are
 * dropped; without them (they could not be loaded) the mappings are kept as they were.
 */
export function linkFromDraft(
  draft: DrillDownDraft,
  targetParameters: readonly TargetParameter[] | undefined,
): DrillDownLink | null {
  if (!draft.target) return null;
  const parameters: Record<string, DrillDownParameter> = {};
  for (const [name, mapping] of Object.entries(draft.parameters)) {
    if (!mapping.column) continue;
    if (!targetParameters) {
      parameters[name] = mapping;
      continue;
    }
    const parameter = targetParameters.find((p) => p.name === name);
    if (parameter) parameters[name] = { column: mapping.column, type: parameter.type };
  }
  return { target: draft.target, parameters, newTab: draft.newTab };
}

/** A new target's first mappings: each parameter named like a column (any case) takes that column. */
export function suggestedParameters(
  targetParameters: readonly TargetParameter[],
  columns: readonly string[],
): Record<string, DrillDownParameter> {
  const out: Record<string, DrillDownParameter> = {};
  for (const p of targetParameters) {
    const column = columns.find((c) => c.toLowerCase() === p.name.toLowerCase());
    if (column) out[p.name] = { column, type: p.type };
  }
  return out;
}

/** The draft with a parameter mapped to a column, or left unset (null). */
export function withParameterColumn(
  draft: DrillDownDraft,
  parameter: TargetParameter,
  column: string | null,
): DrillDownDraft {
  const parameters = { ...draft.parameters };
  if (column) parameters[parameter.name] = { column, type: parameter.type };
  else delete parameters[parameter.name];
  return { ...draft, parameters };
}
