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

type PresentedQuery = ReturnType<typeof presentQueryDetail>;

/**
 * Widget JSON (api-platform.md §6.5) of the widgets of one answer. Widgets of one query share its
 * JSON (presenting a query reads its text for parameters). A widget whose query the caller may
 * not view is `restricted`: neither its text, visualization nor query leave the server.
 */
export function presentWidgets(widgets: Widget[], sources: WidgetSources) {
  const presentedQueries = new Map<number, PresentedQuery>();
  const presentedQuery = (query: Query) => {
    let presented = presentedQueries.get(query.id);
    if (!presented) {
      presented = presentQueryDetail(query, { users: sources.users });
      presentedQueries.set(query.id, presented);
    }
    return presented;
  };
  return widgets.map((w) => presentOne(w, sources, presentedQuery));
}

export function presentWidget(w: Widget, sources: WidgetSources) {
  return presentOne(w, sources, (query) => presentQueryDetail(query, { users: sources.users }));
}

// The objects are written out field by field: spreading one object into another literal cost
// about 3 µs a widget in V8, most of the presenting time of a 50-widget dashboard.
function presentOne(
  w: Widget,
  sources: WidgetSources,
  presentedQuery: (query: Query) => PresentedQuery,
) {
  const visualization =
    w.visualization_id === null ? undefined : sources.visualizations.get(w.visualization_id);
  const query = visualization ? sources.queries.get(visualization.query_id) : undefined;
  if (isRestricted(w, sources)) {
    return {
      id: w.id,
      width: w.width,
      options: w.options,
      dashboard_id: w.dashboard_id,
      created_at: w.created_at,
      updated_at: w.updated_at,
      restricted: true as const,
    };
  }
  const presented: PresentedWidget = {
    id: w.id,
    width: w.width,
    options: w.options,
    dashboard_id: w.dashboard_id,
    text: w.text,
    updated_at: w.updated_at,
    created_at: w.created_at,
  };
  if (visualization && query) {
    presented.visualization = {
      ...presentVisualization(visualization),
      query: presentedQuery(query),
    };
  }
  return presented;
}

/** A widget the caller sees locked: its visualization or query is gone, or not theirs to view. */
export function isRestricted(w: Widget, sources: WidgetSources): boolean {
  if (w.visualization_id === null) return false;
  const visualization = sources.visualizations.get(w.visualization_id);
  const query = visualization ? sources.queries.get(visualization.query_id) : undefined;
  return !query || !sources.canView(query);
}

export interface PresentedWidget {
  id: number;
  width: number;
  options: Widget["options"];
  dashboard_id: number;
  text: Widget["text"];
  updated_at: string;
  created_at: string;
  visualization?: ReturnType<typeof presentVisualization> & { query: PresentedQuery };
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
