// The query document the editor changes and saves: pure steps from one version to the next.
import {
  isQuerySafe,
  parameterNamesInText,
  parametersForText,
  type DataSource,
  type ParameterDefinition,
  type Query,
  type Visualization,
} from "@sightline/core";
import type { QuerySaveBody } from "../../api/queries";
import { readPreference } from "./localPreferences";

export const DEFAULT_QUERY_NAME = "New Query";

/** A query not saved yet (/queries/new); auto limit starts as the user last left it. */
export function newQuery(): Query {
  return {
    id: 0,
    name: DEFAULT_QUERY_NAME,
    description: null,
    query: "",
    query_hash: "",
    schedule: null,
    api_key: "",
    is_archived: false,
    is_draft: true,
    is_safe: true,
    updated_at: "",
    created_at: "",
    data_source_id: null,
    latest_query_data_id: null,
    options: { apply_auto_limit: readPreference("applyAutoLimit", true), parameters: [] },
    version: 1,
    tags: [],
    visualizations: [],
    can_edit: true,
  };
}

/** The data source of a query (spec 2 §2): its own, else the last one used here, else the first. */
export function pickDataSource(query: Query, sources: DataSource[]): number | null {
  if (query.data_source_id) return query.data_source_id;
  const usable = sources.filter((s) => !s.view_only);
  const last = readPreference<number | null>("lastSelectedDataSourceId", null);
  if (last && usable.some((s) => s.id === last)) return last;
  return usable[0]?.id ?? null;
}

/** The query with a new text, and the parameters that text names (spec 2, parameters). */
export function withText(query: Query, text: string): Query {
  const before = query.options.parameters ?? [];
  const parameters = parametersForText(text, before);
  if (parameters === before) return { ...query, query: text };
  return {
    ...query,
    query: text,
    options: { ...query.options, parameters: [...parameters] },
    is_safe: isQuerySafe(parameters),
  };
}

/**
 * The query with a parameter added, or replaced when `previousName` (else its own name) is
 * there already. `placeholder` is the text to write into the editor for a new parameter, unless
 * the text names it already.
 */
export function withParameter(
  query: Query,
  def: ParameterDefinition,
  previousName?: string,
): { query: Query; placeholder: string | null } {
  const list = [...(query.options.parameters ?? [])];
  const index = list.findIndex((p) => p.name === (previousName ?? def.name));
  if (index >= 0) list[index] = def;
  else list.push(def);
  const written = parameterNamesInText(query.query) ?? [];
  return {
    query: {
      ...query,
      options: { ...query.options, parameters: list },
      is_safe: isQuerySafe(list),
    },
    placeholder: index < 0 && !written.includes(def.name) ? `{{ ${def.name} }}` : null,
  };
}

/**
 * Whether saving these changes publishes a draft: renaming a saved query away from the default
 * name does, when the server's autoPublishNamedQueries is on.
 */
export function publishesOnSave(
  next: Query,
  changes: Partial<Query>,
  { isNew, autoPublish }: { isNew: boolean; autoPublish: boolean },
): boolean {
  return (
    next.is_draft &&
    !isNew &&
    autoPublish &&
    next.name !== DEFAULT_QUERY_NAME &&
    changes.name !== undefined
  );
}

/** The fields a save sends (POST /api/queries[/{id}]). */
export function saveBody(query: Query): QuerySaveBody {
  return {
    name: query.name,
    query: query.query,
    description: query.description,
    schedule: query.schedule,
    data_source_id: query.data_source_id,
    options: query.options,
    latest_query_data_id: query.latest_query_data_id,
    is_draft: query.is_draft,
    tags: query.tags,
  };
}

/**
 * The page's query once the server answered a save. Text typed while the save was under way
 * stays, with the parameters it names: it is newer than what was sent.
 */
export function withSaved(current: Query, saved: Query): Query {
  return {
    ...current,
    ...saved,
    query: current.query,
    options: current.options,
    is_safe: current.is_safe,
  };
}

/** The query with this visualization added, or updated in place when it has it already. */
export function withVisualization(query: Query, visualization: Visualization): Query {
  const list = query.visualizations ?? [];
  const exists = list.some((x) => x.id === visualization.id);
  return {
    ...query,
    visualizations: exists
      ? list.map((x) => (x.id === visualization.id ? visualization : x))
      : [...list, visualization],
  };
}

export function withoutVisualization(query: Query, id: number): Query {
  return { ...query, visualizations: (query.visualizations ?? []).filter((x) => x.id !== id) };
}
