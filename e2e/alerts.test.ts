import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN } from "../packages/server/src/testing/httpClient";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp, type Credentials } from "./fixtures/browserApp";
import { dataSourceIdByName } from "./fixtures/demo";
import { createQuery } from "./fixtures/queries";
import { createUserWithPassword } from "./fixtures/users";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

/** Waits outside a test (expect.poll only works inside one). */
async function waitFor(check: () => Promise<boolean>, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the query's result");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const PAT = { email: "pat@example.com", password: "pat-password" };

interface StoredAlert {
  id: number;
  name: string;
  rearm: number | null;
  options: { column?: string; op?: string; value?: unknown; muted?: boolean };
}

/** Browser flows of the alerts area against a real server. */
describe("alerts in the browser", () => {
  const app = useBrowserApp();
  let queryId: number;

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
    // A draft: listed in the selector but not pickable.
    await createQuery(app.api, { name: "Orders draft", sql: "SELECT 1", dataSourceId: demoId });
    // A result, so that the form offers the query's columns.
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
    const hook = await app.api.post("/api/destinations", {
      name: "Ops webhook",
      type: "webhook",
      options: { url: "https://example.com/hook" },
    });
    expect(hook.status, hook.text).toBe(200);
    await createUserWithPassword(app.server, { name: "Pat Plain", ...PAT });
  }, 120_000);

  async function signedIn(user: Credentials = ADMIN, viewport = DESKTOP) {
    const session = await app.openSignedIn(viewport, user);
    session.page.setDefaultTimeout(15_000);
    return session;
  }

  const stored = async (id: number) => (await app.api.get<StoredAlert>(`/api/alerts/${id}`)).body;

  it(
    "creates an alert on a Demo query, views, edits, mutes, subscribes a destination and deletes it",
    { timeout: 240_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.goto("/alerts");
      await page.getByText("Get notified on certain events").waitFor();
      await screenshot(page, "alerts-empty-desktop");

      await page.getByTestId("new-alert").first().click();
      await page.waitForURL((url) => url.pathname === "/alerts/new");
      expect(await page.getByTestId("save-alert").isDisabled()).toBe(true);
      await page.getByText("Alerts do not work with queries that use parameters.").waitFor();

      // Drafts are listed but cannot be picked.
      await page.getByTestId("query-search").locator("input").fill("Orders");
      const draft = page.locator("[aria-disabled=true]", { hasText: "Orders draft" });
      await draft.waitFor();
      await screenshot(page, "alerts-new-query-selector-desktop");
      await draft.dispatchEvent("click");
      expect(await page.getByTestId("chosen-query").count()).toBe(0);
      await page.getByTestId("query-search").locator("input").fill("nothing like this");
      await page.getByText("No results matching search term.").waitFor();
      await page.getByTestId("query-search").locator("input").fill("Orders by");
      await page.getByText("Orders by month").click();
      await page.getByTestId("chosen-query").waitFor();

      // The first column of the result is chosen; a text threshold shows its hint.
      await poll(() =>
        page.locator("#alert-column").locator("..").locator("..").textContent(),
      ).toContain("month");
      await page.fill("#alert-threshold", "many");
      await page.getByText("Value column type doesn't match threshold type.").waitFor();
      await page.fill("#alert-threshold", "100");
      await page.getByText("Value column isn't supported by condition type.").waitFor();
      await page.locator("#alert-column").click();
      await page.locator(".ant-select-item-option", { hasText: "orders" }).click();
      await poll(() =>
        page.getByText("Value column isn't supported by condition type.").count(),
      ).toBe(0);
      // The condition reads the largest value of the column rather than the first row's.
      await page.locator("#alert-selector").click();
      await page.locator(".ant-select-item-option", { hasText: "Maximum" }).click();
      // The default name follows the condition.
      expect(await page.getByLabel("Name").getAttribute("placeholder")).toBe(
        "Orders by month: orders > 100",
      );
      await page.locator("#alert-rearm").click();
      await page.locator(".ant-select-item-option", { hasText: "At most every" }).click();
      await poll(() => page.getByLabel("Interval", { exact: true }).inputValue()).toBe("1");
      await screenshot(page, "alerts-new-desktop");
      await page.getByTestId("save-alert").click();
      await page.waitForURL((url) => /^\/alerts\/\d+$/.test(url.pathname));
      await page.getByText("Saved.").first().waitFor();
      const id = Number(/\/alerts\/(\d+)/.exec(page.url())![1]);
      const created = await stored(id);
      expect(created.name).toBe("Orders by month: orders > 100");
      expect(created.options).toMatchObject({
        column: "orders",
        op: ">",
        value: 100,
        selector: "max",
        muted: false,
      });
      expect(created.rearm).toBe(3600);

      // The view page.
      await page.getByText("At most every 1 hour").waitFor();
      expect(await page.getByTestId("alert-selector").textContent()).toBe("Maximum");
      // Evaluated at once against the latest result: the largest month, 145, is above 100.
      await poll(() => page.getByTestId("alert-state").first().textContent()).toBe("TRIGGERED");
      await screenshot(page, "alerts-view-desktop");

      // Edit: rename and switch to a custom template, then back to default with the confirmation.
      await page.getByTestId("edit-alert").click();
      await page.waitForURL((url) => url.pathname === `/alerts/${id}/edit`);
      // The stored selector is loaded into the form.
      await poll(() =>
        page.locator("#alert-selector").locator("..").locator("..").textContent(),
      ).toContain("Maximum");
      await page.getByLabel("Name").fill("Many orders");
      await page.locator("#alert-template").click();
      await page.locator(".ant-select-item-option", { hasText: "Custom template" }).click();
      await page.fill("#alert-subject", "{{ALERT_NAME}} is {{ALERT_STATUS}}");
      await screenshot(page, "alerts-edit-desktop");
      await page.locator("#alert-template").click();
      await page.locator(".ant-select-item-option", { hasText: "Default template" }).click();
      await page.locator(".ant-modal-confirm-title", { hasText: "Are you sure?" }).waitFor();
      await animationsSettled(page);
      await page.getByRole("button", { name: "Use default template" }).click();
      expect(await page.locator("#alert-subject").count()).toBe(0);
      await page.locator("#alert-template").click();
      await page.locator(".ant-select-item-option", { hasText: "Custom template" }).click();
      await page.fill("#alert-subject", "Orders: {{ALERT_STATUS}}");
      await page.getByTestId("save-alert").click();
      await page.waitForURL((url) => url.pathname === `/alerts/${id}`);
      await poll(async () => (await stored(id)).name).toBe("Many orders");
      expect((await stored(id)).options).toMatchObject({
        custom_subject: "Orders: {{ALERT_STATUS}}",
      });

      // Mute from the menu, then unmute from the banner.
      await page.getByTestId("alert-menu").click();
      await page.getByRole("menuitem", { name: "Mute Notifications" }).click();
      await page.getByText("Notifications have been muted.").first().waitFor();
      await page.getByTestId("muted-banner").waitFor();
      expect((await stored(id)).options.muted).toBe(true);
      await page.goto("/alerts");
      await page.getByTestId("alert-muted").waitFor();
      await screenshot(page, "alerts-list-desktop");
      await page.getByRole("link", { name: "Many orders" }).click();
      await page.getByTestId("muted-banner").getByRole("button", { name: "Unmute" }).click();
      await page.getByText("Notifications have been restored.").first().waitFor();
      expect((await stored(id)).options.muted).toBe(false);

      // Subscribe the webhook destination, then remove it.
      await page.getByTestId("add-destinations").click();
      await page.getByRole("dialog").getByText("Add Existing Alert Destinations").waitFor();
      await animationsSettled(page);
      expect(await page.getByTestId("save-destinations").isDisabled()).toBe(true);
      await page.getByLabel("Search destinations").fill("zzz");
      await page.getByText("No items match your search.").waitFor();
      await page.getByLabel("Search destinations").fill("ops");
      await page.getByRole("option", { name: /Ops webhook/ }).click();
      expect(await page.getByTestId("save-destinations").textContent()).toContain("Save (1)");
      await screenshot(page, "alerts-add-destinations-desktop");
      await page.getByTestId("save-destinations").click();
      await page.getByText("Subscribed.").first().waitFor();
      await page.getByTestId("alert-destinations").getByText("Ops webhook").waitFor();
      const subscriptions = async () =>
        (await app.api.get<{ destination?: { name: string } }[]>(`/api/alerts/${id}/subscriptions`))
          .body;
      expect((await subscriptions()).map((s) => s.destination?.name)).toEqual(["Ops webhook"]);
      await screenshot(page, "alerts-view-subscribed-desktop");
      await page.getByRole("button", { name: "Remove Ops webhook" }).click();
      await poll(async () => (await subscriptions()).length).toBe(0);
      await page.getByRole("button", { name: "Remove Ops webhook" }).waitFor({ state: "detached" });

      // Another user sees the alert read-only and is sent from the edit page to the view.
      const pat = await signedIn(PAT);
      await pat.page.goto(`/alerts/${id}/edit`);
      await pat.page.waitForURL((url) => url.pathname === `/alerts/${id}`);
      await pat.page.getByText("You cannot edit this alert").waitFor();
      await pat.page
        .getByText(
          "You do not have sufficient permissions to edit this alert, and have been redirected to the view-only page.",
        )
        .waitFor();
      expect(await pat.page.getByTestId("edit-alert").isDisabled()).toBe(true);
      expect(await pat.page.getByTestId("alert-menu").isDisabled()).toBe(true);
      await pat.page.getByTestId("edit-alert").locator("..").hover();
      await pat.page
        .getByRole("tooltip")
        .getByText("You do not have sufficient permissions to edit this alert")
        .waitFor();
      await screenshot(pat.page, "alerts-view-readonly-desktop");
      await pat.context.close();

      // Phone screenshots of the list and the view.
      const phone = await signedIn(undefined, PHONE);
      await phone.page.goto("/alerts");
      await phone.page.getByTestId("alerts-table").waitFor();
      await screenshot(phone.page, "alerts-list-phone");
      await phone.page.goto(`/alerts/${id}`);
      await phone.page.getByTestId("alert-destinations").waitFor();
      await screenshot(phone.page, "alerts-view-phone");
      await phone.page.goto(`/alerts/${id}/edit`);
      await phone.page.getByTestId("chosen-query").waitFor();
      await screenshot(phone.page, "alerts-edit-phone");
      await phone.context.close();

      // Delete, with the confirmation.
      await page.getByTestId("alert-menu").click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      await page.getByText("Are you sure you want to delete this alert?").waitFor();
      await animationsSettled(page);
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/alerts");
      await page.getByText("Alert deleted successfully.").first().waitFor();
      expect((await app.api.get(`/api/alerts/${id}`)).status).toBe(404);
      await page.getByText("Get notified on certain events").waitFor();
      await context.close();
    },
  );

  it("clears the list's sort while searching and brings it back when the search is cleared", async () => {
    // Created in this order; six match "orders", more than a page of five.
    const created = ["Beta orders", "Alpha orders", "Gamma sales", "Delta orders"];
    created.push("Zeta orders", "Epsilon orders", "Eta orders");
    const ids: number[] = [];
    for (const name of created) {
      const res = await app.api.post<{ id: number }>("/api/alerts", {
        name,
        query_id: queryId,
        options: { column: "orders", op: ">", value: 1 },
      });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.id);
    }
    const byName = [...created].sort();
    const { page, context } = await signedIn();
    await page.goto("/alerts?page_size=5");
    const table = page.getByTestId("alerts-table");
    const names = () => table.locator("tbody tr td:nth-child(2)").allTextContents();
    // Newest first by default.
    await poll(names).toEqual([...created].reverse().slice(0, 5));
    const nameHeader = table.locator("th", { hasText: "Name" });
    await nameHeader.click();
    await page.waitForURL((url) => url.searchParams.get("order") === "name");
    await poll(names).toEqual(byName.slice(0, 5));
    expect(await nameHeader.getAttribute("aria-sort")).toBe("ascending");

    // Searching drops the sort: the matches come in the list's own order (oldest first), no
    // header sorted; paging through them keeps the sort chosen before.
    await page.getByPlaceholder("Search Alerts...").fill("orders");
    await page.waitForURL((url) => url.searchParams.get("q") === "orders");
    expect(new URL(page.url()).searchParams.get("order")).toBeNull();
    const matches = created.filter((name) => name.endsWith("orders"));
    await poll(names).toEqual(matches.slice(0, 5));
    expect(await nameHeader.getAttribute("aria-sort")).toBeNull();
    await screenshot(page, "alerts-list-search-desktop");
    await page.locator(".ant-pagination-item-2").click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2");
    await poll(names).toEqual(matches.slice(5));
    expect(new URL(page.url()).searchParams.get("order")).toBeNull();

    // Cleared: the sort chosen before comes back, on page 1.
    await page.getByPlaceholder("Search Alerts...").fill("");
    await page.waitForURL((url) => !url.searchParams.has("q"));
    expect(new URL(page.url()).searchParams.get("order")).toBe("name");
    await poll(names).toEqual(byName.slice(0, 5));
    await context.close();
    for (const id of ids) await app.api.request("DELETE", `/api/alerts/${id}`);
  }, 120_000);
});
