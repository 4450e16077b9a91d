import type { Query } from "../store/queries";
import type { User } from "../store/users";
import type { Visualization } from "../store/visualizations";
import type { Widget } from "../store/widgets";
import { presentQueryDetail } from "./queries";
import { presentVisualization } from "./visualizations";

/** What widgets are presented with, read once for all the widgets of an answer. */
export interface WidgetSources {
  visualizations: Map<number, Visualization>;
  queries: Map<number, Query>;
  /** Owners and last editors of the queries. */
  users: Map<number, User>;
  /** Whether the caller may view this query (else its widgets are restricted). */
  canView(query: Query): boolean;
}

/** Widgets of one query share its JSON (presenting a query reads its text for parameters). */
const presentedQueries = new WeakMap<WidgetSources, Map<number, unknown>>();

function presentedQuery(query: Query, sources: WidgetSources) {
  let cache = presentedQueries.get(sources);
  if (!cache) presentedQueries.set(sources, (cache = new Map()));
  let presented = cache.get(query.id) as ReturnType<typeof presentQueryDetail> | undefined;
  if (!presented) {
    presented = presentQueryDetail(query, { users: sources.users });
    cache.set(query.id, presented);
  }
  return presented;
}

/**
 * Widget JSON (api-platform.md §6.5). A widget whose query the caller may not view is
 * `restricted`: neither its text, visualization nor query leave the server.
 */
export function presentWidget(w: Widget, sources: WidgetSources) {
  const common = {
    id: w.id,
    width: w.width,
    options: w.options,
    dashboard_id: w.dashboard_id,
  };
  const visualization =
    w.visualization_id === null ? undefined : sources.visualizations.get(w.visualization_id);
  const query = visualization ? sources.queries.get(visualization.query_id) : undefined;
  if (w.visualization_id !== null && (!visualization || !query || !sources.canView(query))) {
    return {
      ...common,
      created_at: w.created_at,
      updated_at: w.updated_at,
      restricted: true as const,
    };
  }
  return {
    ...common,
    text: w.text,
    updated_at: w.updated_at,
    created_at: w.created_at,
    ...(visualization && query
      ? {
          visualization: {
            ...presentVisualization(visualization),
            query: presentedQuery(query, sources),
          },
        }
      : {}),
  };
}

/**
 * A widget on a public (shared) dashboard (api-platform.md §6.6): no visualization id, no query
 * text, no restriction flag.
 */
export function presentPublicWidget(w: Widget, sources: WidgetSources) {
  const visualization =
    w.visualization_id === null ? undefined : sources.visualizations.get(w.visualization_id);
  const query = visualization ? sources.queries.get(visualization.query_id) : undefined;
  return {
    id: w.id,
    width: w.width,
    options: w.options,
    text: w.text,
    updated_at: w.updated_at,
    created_at: w.created_at,
    ...(visualization && query
      ? {
          visualization: {
            type: visualization.type,
            name: visualization.name,
            description: visualization.description,
            options: visualization.options,
            updated_at: visualization.updated_at,
            created_at: visualization.created_at,
            query: {
              id: query.id,
              name: query.name,
              description: query.description,
              options: query.options,
            },
          },
        }
      : {}),
  };
}
