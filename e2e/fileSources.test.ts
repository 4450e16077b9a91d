// A CSV (files by URL) data source made in the browser: picked in the New Data Source dialog (its
// logo), Test Connection, a query over a file served by a local HTTP server shown and charted.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { randomName } from "../packages/server/src/testing/services";
import { screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { drawnChart } from "./fixtures/charts";
import { pollFor } from "./fixtures/poll";
import { createQueryWithVisualization, embedPath } from "./fixtures/queries";

vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(20_000);

const files = http.createServer((req, res) => {
  if (req.url === "/export") {
    // An "export as CSV" link: one redirect to the file.
    res.writeHead(302, { location: "/fruit.csv" });
    return res.end();
  }
  if (req.url === "/fruit.csv") {
    res.setHeader("content-type", "text/csv");
    return res.end("fruit,sold\napple,12\npear,7.5\nplum,3\n");
  }
  res.statusCode = 404;
  res.end();
});
await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
});

describe("files by URL in the browser", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8" } });
  let admin: Session;

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  it("CSV: created from the dialog, tested, a file by URL shown and charted", async () => {
    const { page } = admin;
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill("csv");
    await poll(() => dialog.getByTestId("type-csv").count()).toBe(1);
    await screenshot(page, "csv-type-dialog");
    await dialog.getByTestId("type-csv").click();
    await dialog.getByLabel("Name", { exact: true }).fill(randomName("csv"));
    await screenshot(page, "csv-new-data-source");
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByRole("button", { name: "Test Connection" }).click();
    await poll(() => page.locator(".ant-notification").textContent()).toContain("Success");

    const chart = await createQueryWithVisualization(
      app.api,
      id,
      { name: "Fruit", sql: `url: ${base}/export\nquery: SELECT * FROM file ORDER BY fruit` },
      {
        type: "CHART",
        options: { globalSeriesType: "column", columnMapping: { fruit: "x", sold: "y" } },
      },
    );
    await page.goto(`/queries/${chart.queryId}/source`);
    const results = page.getByTestId("results");
    await poll(() => results.textContent()).toContain("pear");
    await screenshot(page, "csv-query");
    await page.goto(embedPath(chart));
    await poll(async () => (await drawnChart(page.locator("body"))).categories).toEqual([
      "apple",
      "pear",
      "plum",
    ]);
    await page.waitForTimeout(1500); // the bars' animation
    await screenshot(page, "csv-chart");
  });
});
