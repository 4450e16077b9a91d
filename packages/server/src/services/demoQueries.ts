import {
  renderQueryText,
  resolveDynamicDateRange,
  savedParameterValues,
  type ParameterDefinition,
} from "@sightline/core";
import type { AppContext } from "../context";
import { jobProcessor } from "../execution/runJob";
import { DEMO_PLACES } from "../runners/demoData";
import { storedQueryHash } from "../http/queries";
import type { DataSource } from "../store/dataSources";
import { addFavorite } from "../store/favorites";
import { insertQuery, parameterSchema, type Query } from "../store/queries";
import { insertVisualization, type Visualization } from "../store/visualizations";

/** What the Demo data holds, said in every demo query's description. */
const ABOUT_DEMO =
  "Demo data: an online shop's customers (country, city, signup date), products (category, " +
  "price), orders (customer, time, status) and order_items (product, quantity, unit price).";

/** A table column that links each row to another demo query (a drill-down, issue 19). */
interface DemoDrillDown {
  column: string;
  /** The demo query opened, by name; it comes earlier in the list. */
  target: string;
  /** Its parameter that takes the clicked row's value of `column`. */
  parameter: ParameterDefinition;
}

interface DemoQuery {
  name: string;
  description: string;
  sql: string;
  parameters: ParameterDefinition[];
  /** Shown first, before the Table every query has; none when the Table is the example. */
  visualization?: { type: string; name: string; options: Record<string, unknown> };
  /** A link column of the Table. */
  drillDown?: DemoDrillDown;
}

export const ORDERS_BY_COUNTRY = "Demo: Orders by country";
export const ORDERS_PER_MONTH = "Demo: Orders per month";
export const CUSTOMERS = "Demo: Customers";
export const ORDERS_PER_DAY = "Demo: Orders per day";
export const ORDERS_BY_STATUS = "Demo: Orders by status";
export const ORDERS_FROM_A_CITY = "Demo: Orders from a city";
export const LATEST_ORDERS = "Demo: Latest orders";

/** Every demo query's name, in the order setup creates them. */
export const DEMO_QUERY_NAMES: readonly string[] = [
  ORDERS_BY_COUNTRY,
  ORDERS_PER_MONTH,
  CUSTOMERS,
  ORDERS_PER_DAY,
  ORDERS_BY_STATUS,
  ORDERS_FROM_A_CITY,
  LATEST_ORDERS,
];

/** The city a drill-down passes to "Orders from a city": a dropdown of the shop's cities. */
const CITY_PARAMETER: ParameterDefinition = {
  name: "city",
  title: "City",
  type: "enum",
  enumOptions: DEMO_PLACES.map(([, city]) => city).join("\n"),
  value: "Paris",
  global: false,
};

/**
 * Ready-made examples on the Demo data: a bar chart, a monthly trend, a counter, daily orders
 * over a date range, and for cross-filtering on the Demo dashboard a status pie and the latest
 * orders (both have the country column the bar chart filters by; a click on a city opens that
 * city's orders). The range defaults to the 30 days up to `now`, written as fixed dates: the
 * data ends the day it is generated, so a moving "last 30 days" would empty the chart later on.
 */
export function demoQueries(now: Date): DemoQuery[] {
  const last30Days = resolveDynamicDateRange("d_last_30_days", "date-range", now);
  return [
    {
      name: ORDERS_BY_COUNTRY,
      description: `Orders placed by the customers of each country, most first. ${ABOUT_DEMO}`,
      sql: `SELECT c.country, count(*) AS orders
FROM orders o
JOIN customers c ON c.id = o.customer_id
GROUP BY c.country
ORDER BY orders DESC`,
      parameters: [],
      visualization: {
        type: "CHART",
        name: "Orders by country",
        // Bars in the query's order, most first, not sorted by name.
        options: {
          globalSeriesType: "column",
          sortX: false,
          columnMapping: { country: "x", orders: "y" },
        },
      },
    },
    {
      name: ORDERS_PER_MONTH,
      description: `Orders placed each month, whatever their status. ${ABOUT_DEMO}`,
      sql: `SELECT date_trunc('month', ordered_at)::DATE AS month, count(*) AS orders
FROM orders
GROUP BY month
ORDER BY month`,
      parameters: [],
      visualization: {
        type: "CHART",
        name: "Orders per month",
        options: { globalSeriesType: "line", columnMapping: { month: "x", orders: "y" } },
      },
    },
    {
      name: CUSTOMERS,
      description: `How many customers the shop has. ${ABOUT_DEMO}`,
      sql: "SELECT count(*) AS customers FROM customers",
      parameters: [],
      visualization: {
        type: "COUNTER",
        name: "Customers",
        options: { counterColName: "customers", counterLabel: "Customers" },
      },
    },
    {
      name: ORDERS_PER_DAY,
      description: `Orders placed each day of the chosen period. ${ABOUT_DEMO}`,
      sql: `SELECT ordered_at::DATE AS day, count(*) AS orders
FROM orders
WHERE ordered_at::DATE BETWEEN '{{ period.start }}' AND '{{ period.end }}'
GROUP BY day
ORDER BY day`,
      parameters: [
        { name: "period", title: "Period", type: "date-range", value: last30Days, global: false },
      ],
      visualization: {
        type: "CHART",
        name: "Orders per day",
        options: { globalSeriesType: "column", columnMapping: { day: "x", orders: "y" } },
      },
    },
    {
      name: ORDERS_BY_STATUS,
      description: `Orders by status, with each country's share (a click on a country elsewhere shows only its orders). ${ABOUT_DEMO}`,
      sql: `SELECT c.country, o.status, count(*) AS orders
FROM orders o
JOIN customers c ON c.id = o.customer_id
GROUP BY c.country, o.status
ORDER BY sum(count(*)) OVER (PARTITION BY o.status) DESC, c.country`,
      parameters: [],
      visualization: {
        type: "CHART",
        name: "Orders by status",
        // One slice per status, summing the countries' rows.
        options: { globalSeriesType: "pie", columnMapping: { status: "x", orders: "y" } },
      },
    },
    {
      name: ORDERS_FROM_A_CITY,
      description: `The latest orders of the customers of one city. ${ABOUT_DEMO}`,
      sql: `SELECT o.ordered_at, c.first_name || ' ' || c.last_name AS customer, o.status,
  (SELECT sum(i.quantity * i.unit_price) FROM order_items i WHERE i.order_id = o.id) AS total
FROM orders o
JOIN customers c ON c.id = o.customer_id
WHERE c.city = '{{ city }}'
ORDER BY o.ordered_at DESC
LIMIT 100`,
      parameters: [CITY_PARAMETER],
    },
    {
      name: LATEST_ORDERS,
      description: `The shop's 200 latest orders; a city opens that city's orders. ${ABOUT_DEMO}`,
      sql: `SELECT o.ordered_at, c.first_name || ' ' || c.last_name AS customer, c.country, c.city,
  o.status
FROM orders o
JOIN customers c ON c.id = o.customer_id
ORDER BY o.ordered_at DESC
LIMIT 200`,
      parameters: [],
      drillDown: { column: "city", target: ORDERS_FROM_A_CITY, parameter: CITY_PARAMETER },
    },
  ];
}

/** Table options whose drill-down column links to the target query (by its created id). */
function tableOptions(
  drillDown: DemoDrillDown | undefined,
  created: readonly CreatedDemoQuery[],
): Record<string, unknown> {
  const target = created.find((c) => c.query.name === drillDown?.target)?.query;
  if (!drillDown || !target) return {};
  const { column, parameter } = drillDown;
  return {
    columns: [
      {
        name: column,
        displayAs: "link",
        linkTextTemplate: "{{ @ }}",
        drillDown: {
          target: { type: "query", id: target.id, name: target.name },
          parameters: { [parameter.name]: { column, type: parameter.type } },
          newTab: false,
        },
      },
    ],
  };
}

/** A demo query as created, with the chart, counter or table its dashboard widget shows. */
export interface CreatedDemoQuery {
  query: Query;
  visualization: Visualization;
}

/**
 * The demo queries of a new organisation, owned by its first admin and on their home page as
 * favorites, so a newcomer sees working examples of the Demo data at once. Each is published,
 * tagged "demo", and has its chart (or counter) before the Table.
 */
export async function createDemoQueries(
  ctx: AppContext,
  dataSource: DataSource,
  ownerId: number,
): Promise<CreatedDemoQuery[]> {
  const db = ctx.database.db;
  const created: CreatedDemoQuery[] = [];
  for (const demo of demoQueries(new Date())) {
    const fields = {
      data_source_id: dataSource.id,
      latest_query_data_id: null,
      name: demo.name,
      description: demo.description,
      query: demo.sql,
      query_hash: "",
      user_id: ownerId,
      last_modified_by_id: ownerId,
      is_archived: false,
      is_draft: false,
      schedule: null,
      options: { parameters: demo.parameters },
      tags: ["demo"],
    };
    fields.query_hash = storedQueryHash(fields, dataSource.type);
    const query = await insertQuery(db, dataSource.org_id, fields);
    const chart = demo.visualization
      ? await insertVisualization(db, query.id, { ...demo.visualization, description: "" })
      : null;
    const table = await insertVisualization(db, query.id, {
      type: "TABLE",
      name: "Table",
      description: "",
      options: tableOptions(demo.drillDown, created),
    });
    const visualization = chart ?? table;
    await addFavorite(db, dataSource.org_id, "Query", query.id, ownerId);
    created.push({ query, visualization });
  }
  return created;
}

/**
 * Runs the demo queries once, with their saved parameter values, in this process and outside the
 * queue (like generating the data, it is part of setting the demo up), so their charts show when
 * first opened.
 */
export async function runDemoQueries(
  ctx: AppContext,
  queries: readonly Query[],
  ownerId: number,
  /** Once aborted (the server is closing), the queries not yet started are left unrun. */
  stop: AbortSignal = new AbortController().signal,
): Promise<void> {
  const run = jobProcessor({
    db: ctx.database.db,
    config: ctx.config,
    keys: ctx.keys,
    limits: ctx.resultLimits,
  });
  for (const query of queries) {
    if (stop.aborted) return;
    const schema = parameterSchema(query.options);
    await run(
      {
        orgId: query.org_id,
        dataSourceId: query.data_source_id!,
        // The text the saved values give, whose hash is the query's own (storedQueryHash).
        queryText: renderQueryText(query.query, savedParameterValues(schema), schema),
        queryHash: query.query_hash,
        queryId: query.id,
        userId: ownerId,
        scheduled: false,
        queueName: "queries",
      },
      `demo-${query.id}`,
      new AbortController().signal,
    );
  }
}
