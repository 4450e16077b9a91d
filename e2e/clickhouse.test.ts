// A ClickHouse data source made in the browser: picked in the New Data Source dialog (its logo),
// Test Connection, then a query page with its schema browsed and its result shown.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  clickhouseExec,
  startTestClickHouse,
  type TestClickHouse,
} from "../packages/server/src/testing/clickhouseServer";
import { screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { pollFor } from "./fixtures/poll";
import { createQuery, runQueryToEnd } from "./fixtures/queries";

vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(20_000);
const clickhouse: TestClickHouse | null = await startTestClickHouse();

describe.runIf(clickhouse !== null)("ClickHouse in the browser", () => {
  const app = useBrowserApp();
  let admin: Session;
  let dataSourceId = 0;

  beforeAll(async () => {
    await clickhouseExec(
      clickhouse!.url,
      `CREATE TABLE default.sales (day Date, region String, amount Decimal(12, 2))
       ENGINE = MergeTree ORDER BY day`,
    );
    await clickhouseExec(
      clickhouse!.url,
      `INSERT INTO default.sales VALUES ('2024-01-01', 'north', 120.50),
       ('2024-01-01', 'south', 80.25), ('2024-01-02', 'north', 99.99)`,
    );
    admin = await app.openSignedIn();
  });

  afterAll(async () => {
    await clickhouse?.stop();
  });

  it("creates the data source from the dialog and tests it", async () => {
    const { page } = admin;
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill("click");
    await poll(() => dialog.getByTestId("type-clickhouse").count()).toBe(1);
    await screenshot(page, "clickhouse-type-dialog");
    await dialog.getByTestId("type-clickhouse").click();
    await dialog.getByLabel("Name", { exact: true }).fill("Warehouse");
    await dialog.getByLabel("URL", { exact: true }).fill(clickhouse!.url);
    await dialog.getByLabel("User", { exact: true }).fill(clickhouse!.user);
    await dialog.getByLabel("Password", { exact: true }).fill(clickhouse!.password);
    await dialog.getByLabel("Database Name").fill("default");
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    dataSourceId = Number(/(\d+)$/.exec(page.url())![1]);

    await page.getByRole("button", { name: "Test Connection" }).click();
    const notice = page.locator(".ant-notification");
    await poll(() => notice.textContent()).toContain("Success");
    await screenshot(page, "clickhouse-data-source");
  });

  it("creates a PostgreSQL family preset (TimescaleDB) with its defaults", async () => {
    const { page } = admin;
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill("scale");
    await poll(() => dialog.getByTestId("type-timescaledb").count()).toBe(1);
    await dialog.getByTestId("type-timescaledb").click();
    await dialog.getByLabel("Name", { exact: true }).fill("Metrics");
    // The preset's port is filled in; the machine's PostgreSQL plays TimescaleDB.
    expect(await dialog.getByLabel("Port", { exact: true }).inputValue()).toBe("5432");
    await dialog.getByLabel("User", { exact: true }).fill("postgres");
    await dialog.getByLabel("Database Name").fill("test");
    await screenshot(page, "timescaledb-new-data-source");
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    await page.getByRole("button", { name: "Test Connection" }).click();
    await poll(() => page.locator(".ant-notification").textContent()).toContain("Success");
    expect(await page.getByTestId("data-source-edit").textContent()).toContain("TimescaleDB");
  });

  it("browses the schema and shows a query's result", async () => {
    expect(dataSourceId).toBeGreaterThan(0);
    const query = await createQuery(app.api, {
      name: "Sales by region",
      sql: "SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region",
      dataSourceId,
    });
    await runQueryToEnd(app.api, query.id);
    const { page } = admin;
    await page.goto(`/queries/${query.id}/source`);
    const schema = page.getByTestId("schema-browser");
    await poll(() => schema.textContent()).toContain("sales");
    await schema.getByText("sales", { exact: true }).click();
    await poll(() => schema.textContent()).toContain("amount");
    const results = page.getByTestId("results");
    await poll(() => results.textContent()).toContain("north");
    expect(await results.textContent()).toContain("220.49");
    await screenshot(page, "clickhouse-query");
  });
});
