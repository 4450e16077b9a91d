import { expect } from "vitest";
import type { TestClient } from "../packages/server/src/testing/httpClient";

/** Helpers for browser tests that draw visualizations of queries on the Demo data. */

/** The Demo data source's id once its data is generated (it is paused until then). */
export async function demoDataSourceId(api: TestClient, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = (await api.get("/api/data_sources")).body as {
      id: number;
      name: string;
      paused: number | boolean;
    }[];
    const demo = list.find((d) => d.name === "Demo");
    if (demo && !demo.paused) return demo.id;
    if (Date.now() > deadline) throw new Error("the Demo data source was not ready in time");
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface SavedVisualization {
  queryId: number;
  /** The query's own API key, as an embedding site uses it. */
  apiKey: string;
  visualizationId: number;
}

/** Saves a query on the data source, runs it to the end, and adds a visualization to it. */
export async function saveVisualization(
  api: TestClient,
  dataSourceId: number,
  query: { sql: string; name: string },
  visualization: { type: string; options: Record<string, unknown> },
): Promise<SavedVisualization> {
  const { sql, name } = query;
  const saved = await api.post("/api/queries", { name, query: sql, data_source_id: dataSourceId });
  expect(saved.status, saved.text).toBe(200);
  const { id: queryId, api_key: apiKey } = saved.body as { id: number; api_key: string };
  const run = await api.post(`/api/queries/${queryId}/results`, {});
  let job = (run.body as { job?: { id: string; status: number; error?: string } }).job;
  while (job && job.status !== 3) {
    if (job.status === 4 || job.status === 5) throw new Error(`query failed: ${job.error}`);
    await new Promise((r) => setTimeout(r, 100));
    job = (await api.get(`/api/jobs/${job.id}`)).body.job;
  }
  const viz = await api.post("/api/visualizations", {
    query_id: queryId,
    type: visualization.type,
    name,
    options: visualization.options,
  });
  expect(viz.status, viz.text).toBe(200);
  return { queryId, apiKey, visualizationId: (viz.body as { id: number }).id };
}

/** The embed page's address, opened with the query's API key and no session. */
export function embedPath(v: SavedVisualization): string {
  return `/embed/query/${v.queryId}/visualization/${v.visualizationId}?api_key=${encodeURIComponent(v.apiKey)}`;
}
