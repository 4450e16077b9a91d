// Dashboard-level parameters (spec 3 §2–4), built from the widgets' mappings to them
// (lib/parameterMappings.ts): their values come from the address (p_<name>) or the first mapped
// query parameter's saved value; the Add Widget dialog's mapping drafts.
import {
  normalizeParameterValue,
  parametersFromUrlParams,
  type ParameterDefinition,
} from "@sightline/core";
import type { ParameterMapping } from "../../api/dashboards";
import type { DashboardParameter } from "../../lib/parameterMappings";

export function dashboardParameterValues(
  params: readonly ParameterDefinition[],
  search: URLSearchParams,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of params) out[def.name] = normalizeParameterValue(def, def.value);
  return { ...out, ...parametersFromUrlParams(params, search) };
}

export type MappingChoice = "new" | "existing" | "widget" | "static";

export const KEYWORD_REQUIRED = "Keyword must have a value";
export const KEYWORD_TAKEN = "A parameter with this name already exists";
export const MAPPING_TITLE_MAX = 100;

/** What a mapping being edited in the Add Widget dialog holds. */
export interface MappingDraft {
  choice: MappingChoice;
  /** The new parameter's keyword, or the existing parameter's name. */
  mapTo: string;
  value: unknown;
  title: string;
}

/** The first choice for a query parameter: an existing dashboard parameter of its name and type, else a new one. */
export function initialDraft(
  def: ParameterDefinition,
  existing: readonly DashboardParameter[],
): MappingDraft {
  const same = existing.find((p) => p.name === def.name && p.type === def.type);
  return same
    ? { choice: "existing", mapTo: same.name, value: null, title: "" }
    : { choice: "new", mapTo: def.name, value: null, title: "" };
}

/** The spec's validation text for a draft, or null when it may be saved. */
export function draftError(
  draft: MappingDraft,
  existing: readonly DashboardParameter[],
): string | null {
  if (draft.choice !== "new") return null;
  const keyword = draft.mapTo.trim();
  if (!keyword) return KEYWORD_REQUIRED;
  if (existing.some((p) => p.name === keyword)) return KEYWORD_TAKEN;
  return null;
}

export function draftToMapping(name: string, draft: MappingDraft): ParameterMapping {
  const type =
    draft.choice === "static"
      ? "static-value"
      : draft.choice === "widget"
        ? "widget-level"
        : "dashboard-level";
  return {
    name,
    type,
    mapTo: type === "dashboard-level" ? draft.mapTo.trim() : name,
    value: type === "static-value" ? draft.value : null,
    title: draft.title.slice(0, MAPPING_TITLE_MAX),
  };
}

type Drafts = Readonly<Record<string, MappingDraft>>;

/** Whether any of the query parameters' drafts may not be saved. */
export function draftsInvalid(
  parameters: readonly ParameterDefinition[],
  drafts: Drafts,
  existing: readonly DashboardParameter[],
): boolean {
  return parameters.some(
    (def) => drafts[def.name] && draftError(drafts[def.name], existing) !== null,
  );
}

/** The mappings to save, by query parameter name, for the parameters that have a draft. */
export function draftsToMappings(
  parameters: readonly ParameterDefinition[],
  drafts: Drafts,
): Record<string, ParameterMapping> {
  return Object.fromEntries(
    parameters
      .filter((def) => drafts[def.name])
      .map((def) => [def.name, draftToMapping(def.name, drafts[def.name])]),
  );
}

/** A stored mapping as the editor shows it. */
export function mappingToDraft(mapping: ParameterMapping): MappingDraft {
  const choice: MappingChoice =
    mapping.type === "static-value"
      ? "static"
      : mapping.type === "widget-level"
        ? "widget"
        : "existing";
  return { choice, mapTo: mapping.mapTo, value: mapping.value, title: mapping.title ?? "" };
}
