import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { SilentServer } from "../packages/server/src/testing/silentServer";

vi.setConfig({ testTimeout: 60_000 });

/** Issue 26: the schema browser shows what a schema read that timed out was reading. */
describe("schema timeout in the query editor", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_SCHEMA_TIMEOUT: "2" } });
  // A Prometheus "server" that takes the connection and never answers.
  const silent = new SilentServer();
  let url = "";

  beforeAll(async () => {
    url = (await silent.start()).url;
  });
  afterAll(async () => {
    await silent.close();
  });

  it("shows the timeout's details in the schema browser", async () => {
    const source = await app.api.post<{ id: number }>("/api/data_sources", {
      name: "Silent Prometheus",
      type: "prometheus",
      options: { url },
    });
    expect(source.status).toBe(200);
    const query = await app.api.post<{ id: number }>("/api/queries", {
      data_source_id: source.body.id,
      name: "Silent schema",
      query: "up",
    });
    expect(query.status).toBe(200);
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.body.id}/source`);
    const alert = page.getByTestId("schema-browser").locator(".ant-alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain(
      `Schema refresh failed. Please try again later. Timed out after 2 s while reading the metric names (/api/v1/label/__name__/values) from Prometheus at ${url}.`,
    );
    // A schema that could not be read is not said to be empty.
    expect(await page.getByTestId("schema-browser").textContent()).not.toContain(
      "Schema is empty.",
    );
    await screenshot(page, "query-schema-timeout-desktop");
    await context.close();
  });

  it("says which lazy read failed, and a failed Refresh starts with the spec's words", async () => {
    const source = await app.api.post<{ id: number }>("/api/data_sources", {
      name: "Silent ClickHouse",
      type: "clickhouse",
      options: { url, dbname: "default" },
    });
    expect(source.status).toBe(200);
    const query = await app.api.post<{ id: number }>("/api/queries", {
      data_source_id: source.body.id,
      name: "Silent lazy schema",
      query: "SELECT 1",
    });
    expect(query.status).toBe(200);
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.body.id}/source`);
    const alert = page.getByTestId("schema-browser").locator(".ant-alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toMatch(/^Failed to load Database list\. Timed out /);
    await page.getByRole("button", { name: "Refresh Schema" }).click();
    const notice = page.locator(".ant-notification");
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain(
      "Schema refresh failed. Please try again later. Timed out ",
    );
    await screenshot(page, "query-lazy-schema-timeout-desktop");
    await context.close();
  });
});
