import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";
import { launchBrowser, newPage, screenshot } from "./browser";

/** A saved, executed query with a custom JavaScript chart; returns its embed address. */
async function customChartEmbed(api: TestClient, code: string): Promise<string> {
  let demo: { id: number; paused: number | boolean } | undefined;
  for (let i = 0; i < 360 && !(demo && !demo.paused); i++) {
    demo = (await api.get("/api/data_sources")).body.find(
      (d: { name: string }) => d.name === "Demo",
    );
    if (!demo || demo.paused) await new Promise((r) => setTimeout(r, 250));
  }
  const query = await api.post("/api/queries", {
    name: "Custom",
    query: "SELECT 1 AS x, 2 AS y UNION ALL SELECT 2, 4 ORDER BY 1",
    data_source_id: demo!.id,
  });
  let job = (await api.post(`/api/queries/${query.body.id}/results`, {})).body.job;
  while (job && job.status < 3) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await api.get(`/api/jobs/${job.id}`)).body.job;
  }
  const viz = await api.post("/api/visualizations", {
    query_id: query.body.id,
    type: "CHART",
    name: "Custom",
    options: { globalSeriesType: "custom", columnMapping: { x: "x", y: "y" }, customCode: code },
  });
  return `/embed/query/${query.body.id}/visualization/${viz.body.id}?api_key=${query.body.api_key}`;
}

describe("custom JavaScript charts", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe("when the operator allows them", () => {
    let server: TestServer;
    let api: TestClient;
    beforeAll(async () => {
      server = await startTestServer("sqlite", {
        SIGHTLINE_ALLOW_CUSTOM_JS_VISUALIZATIONS: "true",
      });
      api = await setUpAndLogin(server.url);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    it("run in a sandbox that draws but cannot reach the app or the network", async () => {
      const code = [
        'element.textContent = "points:" + x.length + " sum:" + ys.y.reduce(function (a, b) { return a + b; }, 0);',
        "var probes = [];",
        'try { probes.push("cookie:" + document.cookie); } catch (e) { probes.push("cookie:blocked"); }',
        'try { probes.push("parent:" + window.parent.document.title); } catch (e) { probes.push("parent:blocked"); }',
        'fetch("/api/session").then(function () { probes.push("fetch:open"); }, function () { probes.push("fetch:blocked"); })',
        '  .then(function () { element.setAttribute("data-probes", probes.join(" ")); });',
      ].join("\n");
      const url = await customChartEmbed(api, code);
      const { page, context } = await newPage(browser, server.url);
      await page.goto(url);
      const root = page.frameLocator('iframe[title="Custom chart"]').locator("#root");
      await expect.poll(() => root.textContent({ timeout: 20_000 })).toBe("points:2 sum:6");
      await expect
        .poll(() => root.getAttribute("data-probes", { timeout: 20_000 }))
        .toBe("cookie:blocked parent:blocked fetch:blocked");
      await screenshot(page, "viz-custom-chart");
      await context.close();
    });
  });

  describe("by default", () => {
    let server: TestServer;
    let api: TestClient;
    beforeAll(async () => {
      server = await startTestServer("sqlite");
      api = await setUpAndLogin(server.url);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    it("are off: the data is drawn as a default chart with a notice", async () => {
      const url = await customChartEmbed(api, 'element.textContent = "ran";');
      const { page, context } = await newPage(browser, server.url);
      await page.goto(url);
      await expect
        .poll(() => page.getByText("Custom JavaScript charts are turned off").count(), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0);
      expect(await page.locator('iframe[title="Custom chart"]').count()).toBe(0);
      await context.close();
    });
  });
});
