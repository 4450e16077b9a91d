// Issue 25, acted as the tester did: a destination the outbound guard refuses is refused when
// saved; a failed delivery shows on the destination and on the alert using it; "Send test
// notification" answers in words; the alert form shows the top row's value, a new alert is
// evaluated at once and "Last triggered" means a trigger; the phone title keeps the threshold.
import { beforeAll, describe, expect, it } from "vitest";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { listDestinations } from "../packages/server/src/store/destinations";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { dataSourceIdByName } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery } from "./fixtures/queries";

const poll = pollFor(20_000);
const UNRESOLVABLE = "https://hooks.nowhere.invalid/T1/secret-path";

/** Waits outside a test (expect.poll only works inside one). */
async function waitFor(check: () => Promise<boolean>, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("alert deliveries in the browser", () => {
  const app = useBrowserApp();
  let queryId: number;
  let hookId: number;
  let alertId: number;

  beforeAll(async () => {
    const demoId = await dataSourceIdByName(app.api, "Demo");
    const text =
      "SELECT * FROM (VALUES ('Jan', 120), ('Feb', 145)) AS t(month, orders) ORDER BY orders DESC";
    queryId = (
      await createQuery(app.api, {
        name: "Orders by month",
        sql: text,
        dataSourceId: demoId,
        published: true,
      })
    ).id;
    // The Demo source refuses runs (400) while its data is still being generated.
    await waitFor(
      async () =>
        (
          await app.api.post("/api/query_results", {
            query_id: queryId,
            data_source_id: demoId,
            query: text,
            max_age: 0,
          })
        ).status === 200,
    );
    await waitFor(
      async () =>
        (await app.api.get<{ latest_query_data_id: number | null }>(`/api/queries/${queryId}`)).body
          .latest_query_data_id !== null,
    );
    // A name that does not resolve is saved; its deliveries fail, as the tester's did.
    const hook = await app.api.post<{ id: number }>("/api/destinations", {
      name: "Ops hook",
      type: "webhook",
      options: { url: UNRESOLVABLE },
    });
    expect(hook.status, hook.text).toBe(200);
    hookId = hook.body.id;
    const alert = await app.api.post<{ id: number }>("/api/alerts", {
      name: "Orders by month: orders > 100",
      query_id: queryId,
      options: { column: "orders", op: ">", value: 100, selector: "first" },
    });
    alertId = alert.body.id;
    await app.api.post(`/api/alerts/${alertId}/subscriptions`, {
      alert_id: alertId,
      destination_id: hookId,
    });
    // Evaluating notifies every subscription: the delivery fails (three tries) and is recorded.
    expect((await app.api.post(`/api/alerts/${alertId}/eval`)).status).toBe(200);
    await waitFor(
      async () =>
        (await app.api.get<{ last_failure: string | null }>(`/api/destinations/${hookId}`)).body
          .last_failure !== null,
    );
  }, 180_000);

  async function signedIn(viewport = DESKTOP) {
    const session = await app.openSignedIn(viewport);
    session.page.setDefaultTimeout(15_000);
    return session;
  }

  it("refuses a webhook at 127.0.0.1 when it is saved, saying why", async () => {
    const { page, context } = await signedIn();
    await page.goto("/destinations/new");
    await page.getByTestId("type-webhook").click();
    await page.fill("#name", "Local hook");
    await page.fill("#url", "http://127.0.0.1:9/hook");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page
      .getByText("url: Refusing to connect to 127.0.0.1: loopback addresses are not allowed.")
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/destinations/new");
    // What was typed stays, to be corrected.
    expect(await page.inputValue("#url")).toBe("http://127.0.0.1:9/hook");
    await screenshot(page, "alert-deliveries-refused-desktop", { fullPage: false });
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    expect((await listDestinations(db, org.id)).map((d) => d.name)).not.toContain("Local hook");
    await context.close();
  });

  it("shows the last failure on the destination and sends a test from its page", async () => {
    for (const [viewport, size] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { page, context } = await signedIn(viewport);
      await page.goto(`/destinations/${hookId}`);
      const failure = page.getByTestId("last-failure");
      await failure.waitFor();
      expect(await failure.textContent()).toMatch(
        /Last delivery failed on \d{4}-\d\d-\d\d \d\d:\d\d: Request to hooks\.nowhere\.invalid failed/,
      );
      await page.getByTestId("test-destination").click();
      const outcome = page.getByTestId("test-outcome");
      await outcome.waitFor();
      expect(await outcome.textContent()).toMatch(
        /^The test notification to Ops hook failed: Request to hooks\.nowhere\.invalid failed/,
      );
      expect(await page.content()).not.toContain("secret-path");
      await screenshot(page, `alert-deliveries-destination-${size}`);
      await context.close();
    }
  });

  it("shows the failure on the alert using the destination and sends a test from there", async () => {
    for (const [viewport, size] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { page, context } = await signedIn(viewport);
      await page.goto(`/alerts/${alertId}`);
      const row = page.getByTestId(`subscription-${hookId}`);
      await row.getByTestId("last-failure").waitFor();
      expect(await row.getByTestId("last-failure").textContent()).toContain(
        "Request to hooks.nowhere.invalid failed",
      );
      await page.getByRole("button", { name: "Send test notification to Ops hook" }).click();
      const outcome = page.getByTestId("test-outcome");
      await outcome.waitFor();
      expect(await outcome.textContent()).toMatch(/^The test notification to Ops hook failed: /);
      // The phone title keeps the threshold at its end in view.
      const title = page.locator("h3", { hasText: "Orders by month" }).first();
      expect(await title.textContent()).toBe("Orders by month: orders > 100");
      expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await screenshot(page, `alert-deliveries-alert-${size}`);
      await context.close();
    }
  });

  it("shows the top row's value beside the threshold and evaluates a new alert at once", async () => {
    const { page, context } = await signedIn();
    await page.goto("/alerts/new");
    await page.getByTestId("query-search").locator("input").fill("Orders by");
    await page.getByText("Orders by month").click();
    await page.getByTestId("chosen-query").waitFor();
    // The first column is chosen: its top-row value is shown, then the chosen column's.
    await poll(() => page.getByTestId("top-row-value").textContent()).toBe("Feb");
    await page.locator("#alert-column").click();
    await page.locator(".ant-select-item-option", { hasText: "orders" }).click();
    await poll(() => page.getByTestId("top-row-value").textContent()).toBe("145");
    await page.fill("#alert-threshold", "1000");
    await page.getByLabel("Name").fill("Huge month");
    await screenshot(page, "alert-deliveries-new-desktop");
    await page.getByTestId("save-alert").click();
    await page.waitForURL((url) => /^\/alerts\/\d+$/.test(url.pathname));
    // Evaluated against the latest result at once: 145 > 1000 is false; it never triggered.
    await poll(() => page.getByTestId("alert-state").first().textContent()).toBe("OK");
    const lastTriggered = page.locator(".ant-descriptions-row", { hasText: "Last triggered" });
    expect(await lastTriggered.locator("td").textContent()).toBe("Never");

    // A second one that holds now: triggered, with its time.
    await page.goto("/alerts/new");
    await page.getByTestId("query-search").locator("input").fill("Orders by");
    await page.getByText("Orders by month").click();
    await page.locator("#alert-column").click();
    await page.locator(".ant-select-item-option", { hasText: "orders" }).click();
    await page.fill("#alert-threshold", "140");
    await page.getByTestId("save-alert").click();
    await page.waitForURL((url) => /^\/alerts\/\d+$/.test(url.pathname));
    await poll(() => page.getByTestId("alert-state").first().textContent()).toBe("TRIGGERED");
    expect(
      await page
        .locator(".ant-descriptions-row", { hasText: "Last triggered" })
        .locator("td")
        .textContent(),
    ).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d/);
    await animationsSettled(page);
    await screenshot(page, "alert-deliveries-triggered-desktop");

    const phone = await signedIn(PHONE);
    await phone.page.goto("/alerts/new");
    await phone.page.getByTestId("query-search").locator("input").fill("Orders by");
    await phone.page.getByText("Orders by month").click();
    await poll(() => phone.page.getByTestId("top-row-value").textContent()).toBe("Feb");
    await screenshot(phone.page, "alert-deliveries-new-phone");
    await phone.context.close();
    await context.close();
  });
});
