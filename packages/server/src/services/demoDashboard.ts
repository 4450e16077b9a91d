import type { AppContext } from "../context";
import { insertDashboard, type Dashboard } from "../store/dashboards";
import { addFavorite } from "../store/favorites";
import { parameterSchema, type Query } from "../store/queries";
import { insertWidget } from "../store/widgets";
import {
  CUSTOMERS,
  LATEST_ORDERS,
  ORDERS_BY_COUNTRY,
  ORDERS_BY_STATUS,
  ORDERS_PER_DAY,
  ORDERS_PER_MONTH,
  type CreatedDemoQuery,
} from "./demoQueries";

export const DEMO_DASHBOARD_NAME = "Demo: Online shop";

/** The text box on top: what the Demo data holds and what to try first. */
export const DEMO_DASHBOARD_TEXT = `## Welcome to the Demo dashboard
The **Demo** data source is an online shop: \`customers\`, \`products\`, \`orders\` and \`order_items\`.

**Charts and tables can be clicked.** Click a country's bar or a status slice: the widgets with that column show only its rows, and each widget says which filters it follows. Remove a filter with its × in the bar above (or Escape). In **Latest orders**, a city opens that city's orders.

Try another **Period** to see the daily orders follow it. Each widget's title opens the query behind it.`;

/** A widget's place on the 6-column grid (rows are 50 px high). */
interface Position {
  col: number;
  row: number;
  sizeX: number;
  sizeY: number;
}

/**
 * Where each demo query's widget goes: first the country bars and the status pie, whose clicks
 * cross-filter, beside each other; then the latest orders they filter (a city drills down) with
 * the counter; then the daily and monthly charts. "Orders from a city" is the drill-down's
 * target, not a widget.
 */
const CHART_POSITIONS: Readonly<Record<string, Position>> = {
  [ORDERS_BY_COUNTRY]: { col: 0, row: 5, sizeX: 3, sizeY: 8 },
  [ORDERS_BY_STATUS]: { col: 3, row: 5, sizeX: 3, sizeY: 8 },
  [LATEST_ORDERS]: { col: 0, row: 13, sizeX: 4, sizeY: 9 },
  [CUSTOMERS]: { col: 4, row: 13, sizeX: 2, sizeY: 9 },
  [ORDERS_PER_DAY]: { col: 0, row: 22, sizeX: 3, sizeY: 8 },
  [ORDERS_PER_MONTH]: { col: 3, row: 22, sizeX: 3, sizeY: 8 },
};

const TEXT_POSITION: Position = { col: 0, row: 0, sizeX: 6, sizeY: 5 };

/** Redash's full position: the place plus the default size limits and no auto height. */
function fullPosition(place: Position) {
  return { ...place, minSizeX: 1, maxSizeX: 6, minSizeY: 1, maxSizeY: 1000, autoHeight: false };
}

/**
 * Each query parameter mapped to a dashboard parameter of the same name, so the dashboard shows
 * one input for it (its value is the query's saved one).
 */
function dashboardLevelMappings(query: Query) {
  const mappings: Record<string, unknown> = {};
  for (const { name } of parameterSchema(query.options)) {
    mappings[name] = { name, type: "dashboard-level", mapTo: name, value: null, title: "" };
  }
  return mappings;
}

/**
 * The Demo dashboard of a new organisation: published, tagged "demo" and a favorite of its first
 * admin (so it is on their home page), with a text box about the Demo data and what a click does
 * over the demo queries' charts, counter and table, and the daily chart's period as a dashboard
 * parameter. Cross-filtering is on (the default for every dashboard).
 */
export async function createDemoDashboard(
  ctx: AppContext,
  orgId: number,
  demos: readonly CreatedDemoQuery[],
  ownerId: number,
): Promise<Dashboard> {
  const db = ctx.database.db;
  const dashboard = await insertDashboard(db, orgId, {
    name: DEMO_DASHBOARD_NAME,
    user_id: ownerId,
    layout: [],
    dashboard_filters_enabled: false,
    is_archived: false,
    is_draft: false,
    tags: ["demo"],
    options: {},
  });
  await insertWidget(db, {
    dashboard_id: dashboard.id,
    visualization_id: null,
    text: DEMO_DASHBOARD_TEXT,
    width: 1,
    options: { position: fullPosition(TEXT_POSITION), isHidden: false },
  });
  for (const { query, visualization } of demos) {
    const place = CHART_POSITIONS[query.name];
    if (!place) continue;
    await insertWidget(db, {
      dashboard_id: dashboard.id,
      visualization_id: visualization.id,
      text: "",
      width: 1,
      options: {
        position: fullPosition(place),
        parameterMappings: dashboardLevelMappings(query),
        isHidden: false,
      },
    });
  }
  await addFavorite(db, orgId, "Dashboard", dashboard.id, ownerId);
  return dashboard;
}
