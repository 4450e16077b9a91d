// What a report shows, seen by its owner: the dashboard (or a stand-in dashboard holding one
// query visualization) and the widgets whose queries run, with the parameter values each gets.
import type { Kysely } from "kysely";
import { savedParameterValues } from "@sightline/core";
import { userIdentity, isActive, type UserIdentity } from "../auth/identity";
import { findDashboard, type Dashboard } from "../store/dashboards";
import { parameterSchema, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import { findUserById } from "../store/users";
import { findVisualization } from "../store/visualizations";
import { widgetsOf, type Widget } from "../store/widgets";
import { findQuery } from "../store/queries";
import type { Subscription } from "./store";

/** The id of the one widget of a query visualization's report. */
export const QUERY_REPORT_WIDGET_ID = 0;

export interface ReportTarget {
  dashboard: Dashboard;
  widgets: Widget[];
  /** The page the report links back to. */
  path: string;
}

/** The owner as the report runs: their current rights; null when disabled or gone. */
export async function ownerIdentity(
  db: Kysely<DB>,
  subscription: Subscription,
): Promise<UserIdentity | null> {
  const owner = await findUserById(db, subscription.org_id, subscription.user_id);
  if (!owner || !isActive(owner)) return null;
  return userIdentity(db, owner, false);
}

/** The dashboard or query visualization of a subscription; null when it is gone or archived. */
export async function reportTarget(
  db: Kysely<DB>,
  subscription: Subscription,
): Promise<ReportTarget | null> {
  if (subscription.dashboard_id !== null) {
    const dashboard = await findDashboard(db, subscription.org_id, subscription.dashboard_id);
    if (!dashboard || dashboard.is_archived) return null;
    const widgets = (await widgetsOf(db, [dashboard.id])).get(dashboard.id) ?? [];
    return { dashboard, widgets, path: `/dashboards/${dashboard.id}` };
  }
  if (subscription.query_id === null || subscription.visualization_id === null) return null;
  const query = await findQuery(db, subscription.org_id, subscription.query_id);
  const visualization = await findVisualization(
    db,
    subscription.org_id,
    subscription.visualization_id,
  );
  if (!query || query.is_archived || !visualization || visualization.query_id !== query.id) {
    return null;
  }
  const at = visualization.updated_at;
  const dashboard: Dashboard = {
    id: 0,
    version: 1,
    org_id: query.org_id,
    slug: "",
    name: `${query.name}: ${visualization.name}`,
    user_id: subscription.user_id,
    layout: [],
    dashboard_filters_enabled: false,
    is_archived: false,
    is_draft: false,
    tags: [],
    options: {},
    created_at: query.created_at,
    updated_at: at,
  };
  const widget: Widget = {
    id: QUERY_REPORT_WIDGET_ID,
    dashboard_id: 0,
    visualization_id: visualization.id,
    text: null,
    width: 1,
    options: { position: { col: 0, row: 0, sizeX: 6, sizeY: 10 } },
    created_at: at,
    updated_at: at,
  };
  return {
    dashboard,
    widgets: [widget],
    path: `/queries/${query.id}#${visualization.id}`,
  };
}

interface Mapping {
  type?: string;
  mapTo?: string;
  value?: unknown;
}

/**
 * The values a widget's query runs with: its saved defaults, then the subscription's values for
 * dashboard-level parameters (by their dashboard name), and a widget's static values.
 */
export function widgetParameterValues(
  widget: Widget,
  query: Query,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const schema = parameterSchema(query.options);
  const out: Record<string, unknown> = savedParameterValues(schema);
  const mappings = (widget.options.parameterMappings ?? {}) as Record<string, Mapping>;
  for (const definition of schema) {
    const mapping = mappings[definition.name];
    const type = mapping?.type ?? "dashboard-level";
    if (type === "static-value") {
      out[definition.name] = mapping?.value;
    } else if (type === "dashboard-level") {
      const name = mapping?.mapTo || definition.name;
      if (name in values) out[definition.name] = values[name];
    }
  }
  return out;
}
