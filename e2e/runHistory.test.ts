// Run history in the browser (issue 28): a query run by a user and failing on its schedule shows
// its runs (when, duration, rows, who or "Scheduler", status, error) in the Run History drawer,
// the query list marks it "Schedule failing", and System Status shows the scheduler's heartbeat
// and late schedules. Desktop and phone.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BOTH_VIEWPORTS, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, runQueryToEnd } from "./fixtures/queries";
import { localLeader, Scheduler } from "../packages/server/src/execution/scheduler";

vi.setConfig({ testTimeout: 120_000 });
const poll = pollFor(20_000);

describe("run history in the browser", () => {
  const app = useBrowserApp();
  let queryId: number;

  beforeAll(async () => {
    const demoId = await demoDataSourceId(app.api);
    const query = await createQuery(app.api, {
      name: "Nightly revenue",
      sql: "select 1 as one union all select 2",
      dataSourceId: demoId,
      published: true,
    });
    queryId = query.id;
    await runQueryToEnd(app.api, queryId);
    // Then its table goes away and its schedule fails.
    const saved = await app.api.post(`/api/queries/${queryId}`, {
      query: "select * from revenue_table_that_is_gone",
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    });
    expect(saved.status, saved.text).toBe(200);
    const { db } = app.server.ctx.database;
    const scheduler = new Scheduler({
      db,
      execution: app.server.ctx.execution,
      leader: localLeader,
    });
    expect(await scheduler.refreshOutdated(new Date(Date.now() + 2 * 3600_000))).toContain(queryId);
    // The failing scheduled run is recorded (a plain loop: expect.poll works only inside tests).
    for (let i = 0; i < 200; i += 1) {
      const runs = await app.api.get<{ count: number }>(`/api/queries/${queryId}/runs`);
      if (runs.body.count >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  it.each(BOTH_VIEWPORTS)(
    "reads a query's run history and sees it marked failing ($name)",
    async ({ name, viewport }) => {
      const { context, page } = await app.openSignedIn(viewport);
      await page.goto("/queries");
      const row = page.locator("[data-testid=queries-table] tr", { hasText: "Nightly revenue" });
      await row.locator("[data-testid=schedule-failing]").waitFor();
      expect(await row.locator("[data-testid=schedule-failing]").innerText()).toContain(
        "Schedule failing",
      );
      await screenshot(page, `run-history-list-${name}`, { fullPage: false });

      await page.goto(`/queries/${queryId}`);
      await page.locator("[data-testid=query-actions]").click();
      await page.getByRole("menuitem", { name: "Run History" }).click();
      const history = page.locator("[data-testid=run-history]");
      await history.locator("tbody tr.ant-table-row").first().waitFor();
      await animationsSettled(page);
      const text = () => history.innerText();
      await poll(text).toContain("Scheduler");
      const all = await text();
      expect(all).toContain("Failed");
      expect(all).toContain("Succeeded");
      expect(all).toContain("revenue_table_that_is_gone");
      expect(all).toContain("Admin");
      if (name === "desktop") expect(all).toMatch(/\b2\b/);
      await screenshot(page, `run-history-drawer-${name}`, { fullPage: false });
      await context.close();
    },
  );

  it("System Status shows the scheduler heartbeat and late schedules", async () => {
    const { context, page } = await app.openSignedIn();
    await page.goto("/admin/status");
    await page.locator("[data-testid=scheduler-heartbeat]").waitFor();
    expect(await page.locator("[data-testid=late-schedules]").innerText()).toMatch(/^\d+$/);
    // The query failing on its schedule is counted.
    expect(await page.locator("[data-testid=failing-schedules]").innerText()).toBe("1");
    await screenshot(page, "run-history-system-status-desktop", { fullPage: false });
    await context.close();
  });
});
