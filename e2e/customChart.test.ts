import { describe, expect, it } from "vitest";
import type { TestClient } from "../packages/server/src/testing/httpClient";
import { screenshot } from "./browser";
import { useSharedBrowser, useTestServer } from "./fixtures/browserApp";
import { demoDataSourceId } from "./fixtures/demo";
import { createQueryWithVisualization, embedPath } from "./fixtures/queries";

/** A saved, executed query with a custom JavaScript chart; returns its embed address. */
async function customChartEmbed(api: TestClient, code: string): Promise<string> {
  const saved = await createQueryWithVisualization(
    api,
    await demoDataSourceId(api),
    { name: "Custom", sql: "SELECT 1 AS x, 2 AS y UNION ALL SELECT 2, 4 ORDER BY 1" },
    {
      type: "CHART",
      options: { globalSeriesType: "custom", columnMapping: { x: "x", y: "y" }, customCode: code },
    },
  );
  return embedPath(saved);
}

describe("custom JavaScript charts", () => {
  const shared = useSharedBrowser();

  describe("when the operator allows them", () => {
    const app = useTestServer({ env: { SIGHTLINE_ALLOW_CUSTOM_JS_VISUALIZATIONS: "true" } });

    it("run in a sandbox that draws but cannot reach the app or the network", async () => {
      const code = [
        'element.textContent = "points:" + x.length + " sum:" + ys.y.reduce(function (a, b) { return a + b; }, 0);',
        "var probes = [];",
        'try { probes.push("cookie:" + document.cookie); } catch (e) { probes.push("cookie:blocked"); }',
        'try { probes.push("parent:" + window.parent.document.title); } catch (e) { probes.push("parent:blocked"); }',
        'fetch("/api/session").then(function () { probes.push("fetch:open"); }, function () { probes.push("fetch:blocked"); })',
        '  .then(function () { element.setAttribute("data-probes", probes.join(" ")); });',
      ].join("\n");
      const url = await customChartEmbed(app.api, code);
      const { page, context } = await shared.open(app.server.url);
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
    const app = useTestServer();

    it("are off: the data is drawn as a default chart with a notice", async () => {
      const url = await customChartEmbed(app.api, 'element.textContent = "ran";');
      const { page, context } = await shared.open(app.server.url);
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
