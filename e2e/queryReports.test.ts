// Report subscriptions of a single query visualization in the browser (issue 28): made from the
// query page's menu for the shown visualization, its parameter values taken from the page, the
// destination picker offering only what can carry a report, the schedule dialog worded for a
// report; Send now painted by the worker's Chromium and posted to a webhook on 127.0.0.1, and
// the run in the history. Desktop and phone screenshots.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, createVisualization } from "./fixtures/queries";
import { ADMIN } from "../packages/server/src/testing/httpClient";

vi.setConfig({ testTimeout: 150_000 });
const poll = pollFor(30_000);

interface Subscription {
  id: number;
  name: string;
  query_id: number | null;
  visualization_id: number | null;
  parameters: Record<string, unknown>;
  recipients: { emails: string[]; destination_ids: number[] };
}

describe("report subscriptions of a query visualization", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32" } });
  const received: string[] = [];
  let sink: http.Server | undefined;
  let queryId = 0;
  let counterId = 0;

  beforeAll(async () => {
    sink = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        received.push(body);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => sink!.listen(0, "127.0.0.1", resolve));
    const port = (sink.address() as AddressInfo).port;
    app.server.config.reports.renderUrl = app.server.url;
    for (const destination of [
      { name: "Query hook", type: "webhook", options: { url: `http://127.0.0.1:${port}/q` } },
      { name: "Night pager", type: "pagerduty", options: { integration_key: "k-9" } },
    ]) {
      const created = await app.api.post("/api/destinations", destination);
      expect(created.status, created.text).toBe(200);
    }
    const query = await createQuery(app.api, {
      name: "Customers by country",
      sql: "select count(*) as customers from customers where country = '{{ country }}'",
      dataSourceId: await demoDataSourceId(app.api),
      published: true,
      options: {
        parameters: [{ name: "country", title: "Country", type: "text", value: "Spain" }],
      },
    });
    queryId = query.id;
    counterId = await createVisualization(app.api, queryId, {
      type: "COUNTER",
      name: "Customer count",
      options: { counterColName: "customers" },
    });
  }, 150_000);

  afterAll(() => new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve())));

  async function openSubscriptions(page: Page) {
    await page.goto(`/queries/${queryId}?p_country=Germany#${counterId}`);
    await page.getByTestId("query-actions").click();
    await page.getByRole("menuitem", { name: "Subscriptions" }).click();
    const drawer = page.getByTestId("subscriptions-drawer");
    await drawer.waitFor();
    await animationsSettled(page);
    return drawer;
  }

  it("creates one from the query page for the shown visualization, sends it now and reads its history", async () => {
    const { context, page } = await app.openSignedIn();
    const drawer = await openSubscriptions(page);
    await drawer.getByTestId("subscriptions-empty").waitFor();
    expect(await drawer.getByTestId("subscriptions-empty").textContent()).toContain(
      "this visualization",
    );
    await drawer.getByTestId("subscription-new").click();
    const form = drawer.getByTestId("subscription-form");
    await form.waitFor();
    expect(await form.getByLabel("Name").inputValue()).toBe(
      "Customers by country: Customer count report",
    );
    expect(await form.textContent()).toContain("Skip when the result is empty");
    // The page's parameter value, not the saved default.
    const values = form.getByTestId("subscription-parameters");
    expect(await values.locator("input").first().inputValue()).toBe("Germany");

    // The schedule dialog speaks of sending.
    await form.getByTestId("subscription-schedule-edit").click();
    const scheduleDialog = page.getByTestId("schedule-dialog");
    await poll(() => scheduleDialog.textContent()).toContain("Send every");
    expect(await page.locator(".ant-modal-title").textContent()).toBe("Report Schedule");
    await animationsSettled(page);
    await screenshot(page, "query-reports-schedule-desktop", { fullPage: false });
    await scheduleDialog.getByRole("button", { name: "OK" }).click();

    // Only destinations that can carry a report are offered.
    await form
      .getByTestId("subscription-emails")
      .locator(".ant-tag", { hasText: ADMIN.email })
      .locator(".ant-tag-close-icon")
      .click();
    await form.getByTestId("subscription-destinations").click();
    const hookOption = page.locator(".ant-select-item-option", { hasText: "Query hook" });
    await hookOption.waitFor();
    expect(await page.locator(".ant-select-item-option", { hasText: "Night pager" }).count()).toBe(
      0,
    );
    await hookOption.click();
    await page.keyboard.press("Escape");
    await screenshot(page, "query-reports-form-desktop", { fullPage: false });
    await form.getByTestId("subscription-save").click();

    const item = drawer.getByTestId("subscription-item");
    await poll(() => item.count()).toBe(1);
    expect(await item.getByTestId("subscription-recipients").textContent()).toBe("To: Query hook");
    const saved = await app.api.get<Subscription[]>(`/api/queries/${queryId}/subscriptions`);
    expect(saved.body).toMatchObject([
      {
        query_id: queryId,
        visualization_id: counterId,
        parameters: { country: "Germany" },
        recipients: { emails: [] },
      },
    ]);

    await item.getByTestId("subscription-send").click();
    const outcome = item.getByTestId("send-outcome");
    await outcome.waitFor();
    await poll(() => outcome.getAttribute("data-status"), 90_000).toBe("sent");
    expect(received.length).toBe(1);
    const posted = JSON.parse(received[0]) as { report?: { url?: string } };
    expect(posted.report?.url).toContain(`/queries/${queryId}`);
    await screenshot(page, "query-reports-sent-desktop", { fullPage: false });

    await item.getByTestId("subscription-history").click();
    const rows = drawer.getByTestId("run-history").locator("tbody tr.ant-table-row");
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Send now");
    expect(await rows.first().getByTestId("run-status").textContent()).toBe("Sent");
    await screenshot(page, "query-reports-history-desktop", { fullPage: false });
    await context.close();
  });

  it("lists only the shown visualization's subscriptions, at phone size", async () => {
    const { context, page } = await app.openSignedIn(PHONE);
    const drawer = await openSubscriptions(page);
    await drawer.getByTestId("subscription-item").first().waitFor();
    const box = await drawer.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "query-reports-subscriptions-phone", { fullPage: false });
    await drawer.getByRole("button", { name: "Edit" }).first().click();
    await drawer.getByTestId("subscription-form").waitFor();
    await animationsSettled(page);
    await screenshot(page, "query-reports-form-phone", { fullPage: false });
    await drawer.getByRole("button", { name: "Cancel" }).click();
    await page.keyboard.press("Escape");

    // The table tab: the counter's subscription is not its.
    await page.goto(`/queries/${queryId}?p_country=Germany`);
    await page.getByTestId("query-actions").click();
    await page.getByRole("menuitem", { name: "Subscriptions" }).click();
    await page.getByTestId("subscriptions-empty").waitFor();
    await screenshot(page, "query-reports-empty-phone", { fullPage: false });
    await context.close();
  });
});
