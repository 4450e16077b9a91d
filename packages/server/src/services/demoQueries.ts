import type { AppContext } from "../context";
import { jobProcessor } from "../execution/runJob";
import { storedQueryHash } from "../http/queries";
import type { DataSource } from "../store/dataSources";
import { addFavorite } from "../store/favorites";
import { insertQuery, type Query } from "../store/queries";
import { insertVisualization } from "../store/visualizations";

/** What the Demo data holds, said in every demo query's description. */
const ABOUT_DEMO =
  "Demo data: an online shop's customers (country, city, signup date), products (category, " +
  "price), orders (customer, time, status) and order_items (product, quantity, unit price).";

interface DemoQuery {
  name: string;
  description: string;
  sql: string;
  /** Shown first, before the Table every query has. */
  visualization: { type: string; name: string; options: Record<string, unknown> };
}

/** Ready-made examples on the Demo data: a bar chart, a monthly trend and a counter. */
export const DEMO_QUERIES: readonly DemoQuery[] = [
  {
    name: "Demo: Orders by country",
    description: `Orders placed by the customers of each country, most first. ${ABOUT_DEMO}`,
    sql: `SELECT c.country, count(*) AS orders
FROM orders o
JOIN customers c ON c.id = o.customer_id
GROUP BY c.country
ORDER BY orders DESC`,
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
    name: "Demo: Orders per month",
    description: `Orders placed each month, whatever their status. ${ABOUT_DEMO}`,
    sql: `SELECT date_trunc('month', ordered_at)::DATE AS month, count(*) AS orders
FROM orders
GROUP BY month
ORDER BY month`,
    visualization: {
      type: "CHART",
      name: "Orders per month",
      options: { globalSeriesType: "line", columnMapping: { month: "x", orders: "y" } },
    },
  },
  {
    name: "Demo: Customers",
    description: `How many customers the shop has. ${ABOUT_DEMO}`,
    sql: "SELECT count(*) AS customers FROM customers",
    visualization: {
      type: "COUNTER",
      name: "Customers",
      options: { counterColName: "customers", counterLabel: "Customers" },
    },
  },
];

/**
 * The demo queries of a new organisation, owned by its first admin and on their home page as
 * favorites, so a newcomer sees working examples of the Demo data at once. Each is published,
 * tagged "demo", and has its chart (or counter) before the Table.
 */
export async function createDemoQueries(
  ctx: AppContext,
  dataSource: DataSource,
  ownerId: number,
): Promise<Query[]> {
  const db = ctx.database.db;
  const queries: Query[] = [];
  for (const demo of DEMO_QUERIES) {
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
      options: { parameters: [] },
      tags: ["demo"],
    };
    fields.query_hash = storedQueryHash(fields, dataSource.type);
    const query = await insertQuery(db, dataSource.org_id, fields);
    await insertVisualization(db, query.id, { ...demo.visualization, description: "" });
    await insertVisualization(db, query.id, {
      type: "TABLE",
      name: "Table",
      description: "",
      options: {},
    });
    await addFavorite(db, dataSource.org_id, "Query", query.id, ownerId);
    queries.push(query);
  }
  return queries;
}

/**
 * Runs the demo queries once, in this process and outside the queue (like generating the data,
 * it is part of setting the demo up), so their charts show when first opened.
 */
export async function runDemoQueries(
  ctx: AppContext,
  queries: readonly Query[],
  ownerId: number,
): Promise<void> {
  const run = jobProcessor({
    db: ctx.database.db,
    config: ctx.config,
    keys: ctx.keys,
    limits: ctx.resultLimits,
  });
  for (const query of queries) {
    await run(
      {
        orgId: query.org_id,
        dataSourceId: query.data_source_id!,
        queryText: query.query,
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
