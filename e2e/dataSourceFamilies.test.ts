// The PostgreSQL and MySQL family presets made in the browser from the New Data Source dialog:
// each type's own defaults shown in the form, pointed at the machine's PostgreSQL or MariaDB,
// Test Connection; Redshift and MariaDB then browsed, queried and charted. Desktop and phone.
import mysql from "mysql2/promise";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TEST_MYSQL_URL, TEST_PG_URL, randomName } from "../packages/server/src/testing/services";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { pollFor } from "./fixtures/poll";

vi.setConfig({ testTimeout: 120_000 });
const poll = pollFor(20_000);

const pgUrl = new URL(TEST_PG_URL);
const myUrl = new URL(TEST_MYSQL_URL);
const schemaName = randomName("fam").toLowerCase();

beforeAll(async () => {
  const db = new pg.Client({ connectionString: TEST_PG_URL });
  await db.connect();
  try {
    await db.query(`CREATE SCHEMA ${schemaName}`);
    await db.query(`CREATE TABLE ${schemaName}.rides (city text, trips integer)`);
    await db.query(
      `INSERT INTO ${schemaName}.rides VALUES ('Oslo', 12), ('Lima', 30), ('Pune', 21)`,
    );
  } finally {
    await db.end();
  }
  const my = await mysql.createConnection(TEST_MYSQL_URL);
  try {
    await my.query(`CREATE TABLE ${schemaName} (city varchar(20), trips int)`);
    await my.query(`INSERT INTO ${schemaName} VALUES ('Oslo', 12), ('Lima', 30), ('Pune', 21)`);
  } finally {
    await my.end();
  }
});

afterAll(async () => {
  const db = new pg.Client({ connectionString: TEST_PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`).finally(() => db.end());
  const my = await mysql.createConnection(TEST_MYSQL_URL);
  await my.query(`DROP TABLE IF EXISTS ${schemaName}`).finally(() => my.end());
});

/** What a person types in the dialog's search to find each type. */
const SEARCH: Record<string, string> = { rds_mysql: "RDS", timescaledb: "Timescale" };

/** Opens the dialog on `type` and names the new data source; the form is then shown. */
async function pickType(page: Page, type: string, name: string): Promise<void> {
  await page.goto("/data_sources/new");
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Search types").fill(SEARCH[type] ?? type);
  await poll(() => dialog.getByTestId(`type-${type}`).count()).toBe(1);
  await dialog.getByTestId(`type-${type}`).click();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
}

const field = (page: Page, label: string) =>
  page.getByRole("dialog").getByLabel(label, { exact: true });

/** Opens the form's Additional Settings (SSL settings are there). */
async function openAdditional(page: Page): Promise<void> {
  await page.getByRole("dialog").getByText("Additional Settings").click();
  await animationsSettled(page);
}

async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await openAdditional(page);
  await field(page, label).click();
  await page.locator(`.ant-select-item-option[title='${option}']`).click();
}

async function createAndTest(page: Page): Promise<number> {
  await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
  await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
  await page.getByRole("button", { name: "Test Connection" }).click();
  await poll(() => page.locator(".ant-notification").textContent()).toContain("Success");
  await page.locator(".ant-notification-notice-close").first().click();
  return Number(/(\d+)$/.exec(page.url())![1]);
}

/** A new query on the data source: `sql` run, the result charted (city along X). */
async function queryAndChart(page: Page, source: string, sql: string, shot: string) {
  await page.goto("/queries/new");
  await page.click("[data-testid=data-source-picker]");
  await page.click(`.ant-select-item-option[title='${source}']`);
  await page.locator("[data-testid=query-editor] .cm-content").click();
  await page.keyboard.insertText(sql);
  await page.keyboard.press("Control+Enter");
  await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("3 Rows");
  expect(await page.getByTestId("results").textContent()).toContain("Lima");
  await page.click("button:has-text('Add Visualization')");
  await page.waitForSelector("[data-testid=save-visualization]");
  await animationsSettled(page);
  await page.waitForTimeout(1500); // the bars' animation, for the picture
  expect(await page.locator(".ant-modal").textContent()).not.toContain("could not be drawn");
  await screenshot(page, shot);
  await page.click("[data-testid=save-visualization]");
  await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual(["Table", "Chart"]);
}

describe("PostgreSQL and MySQL family presets in the browser", () => {
  const app = useBrowserApp();
  let admin: Session;

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  it("Redshift: its defaults, then PostgreSQL reached, browsed, queried and charted", async () => {
    const { page } = admin;
    const name = randomName("Redshift");
    await pickType(page, "redshift", name);
    expect(await field(page, "Port").inputValue()).toBe("5439");
    expect(await field(page, "Database Name").inputValue()).toBe("dev");
    expect(await page.getByRole("dialog").textContent()).toContain("Require");
    await screenshot(page, "family-redshift-form", { fullPage: false });
    await field(page, "Host").fill(pgUrl.hostname);
    await field(page, "Port").fill(pgUrl.port || "5432");
    await field(page, "User").fill(decodeURIComponent(pgUrl.username));
    await field(page, "Password").fill("not-checked-by-trust-auth");
    await field(page, "Database Name").fill(pgUrl.pathname.slice(1));
    await chooseOption(page, "SSL Mode", "Disable");
    await createAndTest(page);

    await page.goto("/queries/new");
    await page.click("[data-testid=data-source-picker]");
    await page.click(`.ant-select-item-option[title='${name}']`);
    const picker = page.locator("[data-testid=schema-database]");
    await poll(() => picker.textContent()).toContain("public");
    await picker.click();
    await page.keyboard.type(schemaName);
    await page.keyboard.press("Enter");
    const schema = page.getByTestId("schema-browser");
    await poll(() => schema.textContent()).toContain("rides");
    await schema.getByText("rides", { exact: true }).click();
    await poll(() => schema.textContent()).toContain("trips");
    await queryAndChart(
      page,
      name,
      `SELECT city, trips FROM ${schemaName}.rides ORDER BY city`,
      "family-redshift-chart",
    );
  });

  it("CockroachDB and TimescaleDB: their defaults, then PostgreSQL reached", async () => {
    const { page } = admin;
    await pickType(page, "cockroach", randomName("Cockroach"));
    expect(await field(page, "Port").inputValue()).toBe("26257");
    expect(await field(page, "User").inputValue()).toBe("root");
    expect(await field(page, "Database Name").inputValue()).toBe("defaultdb");
    await field(page, "Host").fill(pgUrl.hostname);
    await field(page, "Port").fill(pgUrl.port || "5432");
    await field(page, "User").fill(decodeURIComponent(pgUrl.username));
    await field(page, "Database Name").fill(pgUrl.pathname.slice(1));
    await chooseOption(page, "SSL Mode", "Disable");
    await createAndTest(page);

    await pickType(page, "timescaledb", randomName("Timescale"));
    expect(await field(page, "Port").inputValue()).toBe("5432");
    await field(page, "Host").fill(pgUrl.hostname);
    await field(page, "User").fill(decodeURIComponent(pgUrl.username));
    await field(page, "Database Name").fill(pgUrl.pathname.slice(1));
    await createAndTest(page);
  });

  it("MariaDB and TiDB: their defaults, then MariaDB reached; MariaDB queried and charted", async () => {
    const { page } = admin;
    const name = randomName("MariaDB");
    await pickType(page, "mariadb", name);
    expect(await field(page, "Port").inputValue()).toBe("3306");
    await field(page, "Host").fill(myUrl.hostname);
    await field(page, "User").fill(decodeURIComponent(myUrl.username));
    await field(page, "Database name").fill(myUrl.pathname.slice(1));
    await createAndTest(page);
    await queryAndChart(
      page,
      name,
      `SELECT city, trips FROM ${schemaName} ORDER BY city`,
      "family-mariadb-chart",
    );

    await pickType(page, "tidb", randomName("TiDB"));
    expect(await field(page, "Port").inputValue()).toBe("4000");
    expect(await field(page, "User").inputValue()).toBe("root");
    await screenshot(page, "family-tidb-form", { fullPage: false });
    await field(page, "Host").fill(myUrl.hostname);
    await field(page, "Port").fill(myUrl.port || "3306");
    await field(page, "User").fill(decodeURIComponent(myUrl.username));
    await field(page, "Database name").fill(myUrl.pathname.slice(1));
    // TiDB Cloud's TLS is on by default; the local MariaDB has none.
    await openAdditional(page);
    const tls = page.getByRole("dialog").getByRole("checkbox", { name: "Use SSL" });
    expect(await tls.isChecked()).toBe(true);
    await tls.uncheck();
    await createAndTest(page);
  });

  it("MySQL (Amazon RDS) on a phone: TLS required by default, the driver's words when it fails", async () => {
    const phone = await app.openSignedIn(PHONE);
    const { page } = phone;
    await pickType(page, "rds_mysql", randomName("RDS"));
    await openAdditional(page);
    const tls = page.getByRole("dialog").getByRole("checkbox", { name: "Use SSL" });
    expect(await tls.isChecked()).toBe(true);
    await field(page, "Host").fill(myUrl.hostname);
    await field(page, "User").fill(decodeURIComponent(myUrl.username));
    await field(page, "Password").fill("wrong-password");
    await field(page, "Database name").fill(myUrl.pathname.slice(1));
    await screenshot(page, "family-rds-form-phone");
    await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    await page.getByRole("button", { name: "Test Connection" }).click();
    const notice = page.locator(".ant-notification");
    await poll(() => notice.textContent()).toMatch(/SSL|TLS|secure|Access denied/i);
    expect(await notice.textContent()).not.toContain("Success");
    await screenshot(page, "family-rds-test-phone");
    await phone.context.close();
  });
});
