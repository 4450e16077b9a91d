import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { DEFAULT_ORG_SLUG, findOrgBySlug } from "../packages/server/src/store/organizations";
import { insertGroup } from "../packages/server/src/store/users";
import { useBrowserApp } from "./fixtures/browserApp";
import { dataSourceIdByName } from "./fixtures/demo";
import { createUserWithPassword } from "./fixtures/users";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(15_000);

/**
 * The query page's header keeps its actions on one line, "⋯" included, and nothing sticks out of
 * the screen: on a phone the actions share the title's line or take the next one, never a third.
 */
async function expectCompactQueryHeader(page: Page): Promise<void> {
  const layout = await page.locator("[data-testid=query-actions]").evaluate((more) => {
    const actions = more.parentElement!;
    const header = actions.parentElement!;
    const boxes = [...actions.children].map((child) => child.getBoundingClientRect());
    const title = header.firstElementChild!.getBoundingClientRect();
    return {
      tops: boxes.map((box) => Math.round(box.top)),
      right: Math.max(...boxes.map((box) => box.right), title.right),
      headerHeight: header.getBoundingClientRect().height,
      twoLines:
        title.height +
        Math.max(...boxes.map((box) => box.height)) +
        parseFloat(getComputedStyle(header).rowGap),
      width: document.documentElement.clientWidth,
    };
  });
  expect(layout.tops.length).toBeGreaterThan(1);
  for (const top of layout.tops) expect(Math.abs(top - layout.tops.at(-1)!)).toBeLessThanOrEqual(2);
  expect(layout.headerHeight).toBeLessThanOrEqual(layout.twoLines + 1);
  expect(layout.right).toBeLessThanOrEqual(layout.width);
}

/** Browser flows of the query workspace against a real server. */
describe("query workspace in the browser", () => {
  const app = useBrowserApp();
  let dataSourceId: number;

  beforeAll(async () => {
    dataSourceId = await dataSourceIdByName(app.api, "Demo");
  }, 60_000);

  const signedIn = app.openSignedIn;

  it(
    "shows the list empty states, then lists, searches and filters by tag",
    { timeout: 60_000 },
    async () => {
      // The admin who set up has the Demo queries (as favorites too): a second user, in the
      // default group with Demo, has none yet.
      const newcomer = { email: "newcomer@example.com", password: "newcomer-password" };
      await createUserWithPassword(app.server, { name: "Nina Newcomer", ...newcomer });
      const first = await signedIn(DESKTOP, newcomer);
      await first.page.goto("/queries/favorites");
      await poll(() => first.page.textContent("body")).toContain(
        "Mark queries as Favorite to list them here.",
      );
      await first.page.goto("/queries/archive");
      await poll(() => first.page.textContent("body")).toContain(
        "Archived queries will be listed here.",
      );
      await first.page.goto("/queries/my");
      await poll(() => first.page.textContent("body")).toContain("You have no queries yet.");
      await poll(() => first.page.textContent("body")).toContain("Create your first query!");
      await first.context.close();

      const { page, context } = await signedIn();

      for (const [name, tags] of [
        ["Orders by month", ["sales"]],
        ["Customers", []],
        // A long name takes the room the other columns could wrap into.
        [
          "A very long query name that goes on and on, to see how the list lays out long titles",
          ["a-long-tag-name-here", "another"],
        ],
      ] as const) {
        const res = await app.api.post("/api/queries", {
          name,
          query: "select 1 as a",
          data_source_id: dataSourceId,
          tags,
        });
        expect(res.status).toBe(200);
      }
      await page.goto("/queries");
      await poll(() => page.textContent("[data-testid=queries-table]")).toContain(
        "Orders by month",
      );
      expect(await page.textContent("[data-testid=queries-table]")).toContain("Unpublished");
      // The short columns' headers and dates keep to one line on a desktop.
      const rowHeights = await page
        .locator("[data-testid=queries-table] thead th")
        .evaluateAll((cells) =>
          cells
            .filter((cell) => /Created|Executed|Schedule/.test(cell.textContent ?? ""))
            .map(
              (cell) =>
                cell.querySelector(".ant-table-column-title")!.getBoundingClientRect().height,
            ),
        );
      expect(rowHeights).toHaveLength(4);
      for (const height of rowHeights) expect(height).toBeLessThan(30);
      await screenshot(page, "queries-list-desktop");

      // Searching clears the chosen sort; clearing the search brings it back (spec 3, Lists).
      await page.locator("[data-testid=queries-table] thead th", { hasText: /^Name$/ }).click();
      await poll(() => page.url()).toContain("order=name");
      await page.fill("input[aria-label='Search Queries...']", "zzznothing");
      await poll(() => page.textContent("body")).toContain("Sorry, we couldn't find anything.");
      expect(page.url()).toContain("q=zzznothing");
      expect(page.url()).not.toContain("order=");
      await page.fill("input[aria-label='Search Queries...']", "");
      await poll(() => page.url()).not.toContain("q=");
      expect(page.url()).toContain("order=name");
      await page.click("[data-testid=tags-filter] >> text=sales");
      await poll(() => page.url()).toContain("tags=sales");
      await poll(() => page.locator("[data-testid=queries-table] tbody tr").count()).toBe(1);

      // The star marks a favorite, which then shows in Favorites.
      await page.locator("[data-testid=favorite-star]").first().click();
      await page.goto("/queries/favorites");
      await poll(() => page.textContent("body")).toContain("Orders by month");
      await context.close();

      const phone = await signedIn(PHONE);
      await phone.page.goto("/queries");
      await poll(() => phone.page.textContent("body")).toContain("Orders by month");
      // The list starts on the first screen: the lists and tags sit in one compact row.
      const table = phone.page.locator("[data-testid=queries-table]");
      expect((await table.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
      expect(await phone.page.locator("[data-testid=tags-filter]").count()).toBe(0);
      await screenshot(phone.page, "queries-list-phone");
      await phone.page.getByTestId("tags-toggle").click();
      await phone.page.click("[data-testid=tags-filter] >> text=sales");
      await poll(() => phone.page.url()).toContain("tags=sales");
      await poll(() => phone.page.getByTestId("tags-toggle").textContent()).toBe("Tags (1)");
      await phone.page.getByLabel("List").click();
      await phone.page.locator(".ant-select-item-option", { hasText: "Favorites" }).click();
      await poll(() => new URL(phone.page.url()).pathname).toBe("/queries/favorites");
      await poll(() => phone.page.textContent("body")).toContain("Orders by month");
      await phone.context.close();
    },
  );

  it("tells a user without create_query at /queries/new that they cannot create queries", async () => {
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, DEFAULT_ORG_SLUG))!;
    // Full access to Demo, but a group that may view and run queries, not create them.
    const readers = await insertGroup(db, org.id, "Readers", "regular", [
      "view_query",
      "execute_query",
      "list_data_sources",
    ]);
    const linked = await app.api.post(`/api/groups/${readers.id}/data_sources`, {
      data_source_id: dataSourceId,
    });
    expect(linked.status).toBe(200);
    const reader = { email: "reader@example.com", password: "reader-password" };
    await createUserWithPassword(app.server, {
      name: "Rita Reader",
      ...reader,
      groupIds: [readers.id],
    });
    const { page, context } = await signedIn(DESKTOP, reader);
    await page.goto("/queries/new");
    await poll(() => page.textContent("body")).toContain(
      "You don't have permission to create new queries on any of the data sources available to you.",
    );
    expect(await page.locator("[data-testid=query-editor]").count()).toBe(0);
    await context.close();
  });

  it("Add Visualization on a new query saves it, then opens the editor", async () => {
    const { page, context } = await signedIn();
    const scripts: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(r.url())));
    const loadedCharts = () => scripts.some((url) => /\/echarts-[\w-]+\.js$/.test(url));
    await page.goto("/queries/new");
    await poll(() => page.textContent("[data-testid=schema-browser]")).toContain("orders");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.type("select 1 as n");
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");
    // A table needs no chart library: ECharts (about 1 MB) loads with the first chart.
    expect(loadedCharts()).toBe(false);
    await page.click("button:has-text('Add Visualization')");
    await page.waitForURL(/\/queries\/\d+\/source/);
    await page.waitForSelector("[data-testid=save-visualization]");
    await poll(loadedCharts).toBe(true);
    const id = Number(page.url().match(/queries\/(\d+)/)![1]);
    expect(((await app.api.get(`/api/queries/${id}`)).body as { query: string }).query).toBe(
      "select 1 as n",
    );
    await screenshot(page, "query-new-add-visualization");
    // The request to open it is used once: a reload shows the query without the dialog.
    await page.keyboard.press("Escape");
    await page.reload();
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");
    expect(await page.locator("[data-testid=save-visualization]").count()).toBe(0);
    await context.close();
  });

  it(
    "writes a query with autocomplete, runs it, sees an error, fixes it and saves",
    { timeout: 90_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.goto("/queries/new");
      await poll(() => page.textContent("[data-testid=data-source-picker]")).toContain("Demo");
      await poll(() => page.textContent("[data-testid=schema-browser]")).toContain("orders");

      // Without text Execute is disabled; the shortcut explains with the spec's text.
      expect(await page.isDisabled("[data-testid=execute-query]")).toBe(true);
      const editor = page.locator("[data-testid=query-editor] .cm-content");
      await editor.click();
      await page.keyboard.press("Control+Enter");
      await poll(() => page.textContent("body")).toContain("Can't execute empty query.");

      await page.keyboard.type("select count(*) as n from ord");
      await poll(() => page.textContent(".cm-tooltip-autocomplete")).toContain("orders");
      await page.locator(".cm-tooltip-autocomplete li", { hasText: /^orders/ }).click();
      await poll(() => editor.textContent()).toContain("from orders");

      // A failing query shows the runner's error, and the text stays.
      await page.keyboard.type(" where");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+Enter");
      await poll(() => page.textContent("[data-testid=execution-error]")).toContain(
        "Error running query:",
      );
      expect(await editor.textContent()).toContain("from orders where");
      await screenshot(page, "query-editor-error-desktop");

      // Fixed, it runs and shows its result.
      for (let i = 0; i < 6; i++) await page.keyboard.press("Backspace");
      await page.click("[data-testid=execute-query]");
      await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");

      // Save (Ctrl+S) creates the query and moves to its source address.
      await editor.click();
      await page.keyboard.press("Control+s");
      await page.waitForURL(/\/queries\/\d+\/source/);
      await screenshot(page, "query-editor-desktop");
      const id = Number(page.url().match(/queries\/(\d+)/)![1]);
      const saved = (await app.api.get(`/api/queries/${id}`)).body as {
        query: string;
        name: string;
      };
      expect(saved.query).toBe("select count(*) as n from orders");

      // Renaming in place publishes it.
      await page.click("[data-testid=query-name]");
      await page.keyboard.press("Control+a");
      await page.keyboard.type("Order count");
      await page.keyboard.press("Enter");
      await poll(() => page.textContent("body")).toContain("Query saved and published");
      await context.close();

      const phone = await signedIn(PHONE);
      await phone.page.goto(`/queries/${id}/source`);
      await poll(() => phone.page.textContent("[data-testid=result-rows]")).toContain("1 Row");
      await expectCompactQueryHeader(phone.page);
      await screenshot(phone.page, "query-editor-phone");
      await phone.context.close();
    },
  );

  async function createQuery(
    body: Record<string, unknown>,
  ): Promise<{ id: number; api_key: string; visualizations: { id: number }[] }> {
    const res = await app.api.post("/api/queries", { data_source_id: dataSourceId, ...body });
    expect(res.status).toBe(200);
    return res.body as { id: number; api_key: string; visualizations: { id: number }[] };
  }

  it(
    "adds a parameter, refuses bad values, applies good ones into the address",
    { timeout: 90_000 },
    async () => {
      const query = await createQuery({ name: "Param query", query: "select 1 as a" });
      const { page, context } = await signedIn();
      await page.goto(`/queries/${query.id}/source`);
      await poll(() => page.textContent("[data-testid=query-editor]")).toContain("select 1");
      const editor = page.locator("[data-testid=query-editor] .cm-content");
      await editor.click();
      await page.keyboard.press("End");
      await page.keyboard.type(" where 1 = ");
      await page.click("button[aria-label='Add New Parameter']");
      await page.fill("input[aria-label=Keyword]", "n");
      await page.click("[data-testid=parameter-type]");
      await page.click(".ant-select-item-option[title=Number]");
      await animationsSettled(page);
      await page.click(".ant-modal-footer >> text=Add Parameter");
      await poll(() => editor.textContent()).toContain("{{ n }}");

      // An empty number is refused with the spec's message; the text stays.
      await page.click("[data-testid=execute-query]");
      await poll(() => page.textContent("body")).toContain("missing value(s) for n parameter(s).");
      // A non-numeric value becomes empty (spec 1 §5): the box keeps no letters; still missing.
      await page.locator("[data-testid=parameter-n]").pressSequentially("abc");
      expect(await page.inputValue("[data-testid=parameter-n]")).toBe("");
      await page.locator("[data-testid=parameter-n]").pressSequentially("4x2");
      expect(await page.inputValue("[data-testid=parameter-n]")).toBe("42");
      await page.fill("[data-testid=parameter-n]", "");
      await page.click("[data-testid=execute-query]");
      await poll(() => page.textContent("body")).toContain("missing value(s) for n parameter(s).");
      await page.fill("[data-testid=parameter-n]", "1");
      await page.keyboard.press("Control+Enter");
      await poll(() => page.url()).toContain("p_n=1");
      await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");
      expect(await editor.textContent()).toContain("where 1 = {{ n }}");
      await screenshot(page, "query-parameters-desktop");
      await page.keyboard.press("Control+s");
      await poll(
        async () =>
          (
            (await app.api.get(`/api/queries/${query.id}`)).body as {
              options: { parameters: unknown[] };
            }
          ).options.parameters?.length,
      ).toBe(1);

      // The embed dialog refuses nothing here (number parameters are safe).
      await page.click("[data-testid=query-actions]");
      await page.click("text=Embed");
      await poll(() => page.textContent("[data-testid=embed-dialog]")).toContain(
        'width="720" height="391"',
      );
      // The results by URL are offered here too (spec 2 §2, Embed).
      expect(
        await page.textContent("[data-testid=embed-dialog] [data-testid=example-api-calls]"),
      ).toMatch(
        /\/api\/queries\/\d+\/results\.csv\?api_key=\w+.*\/api\/queries\/\d+\/results\.json\?api_key=\w+/,
      );
      // The embed shows what the page shows: the applied parameter values go into its address.
      expect(await page.inputValue("[data-testid=embed-code]")).toMatch(
        /\/embed\/query\/\d+\/visualization\/\d+\?api_key=\w+&p_n=1"/,
      );
      await page.keyboard.press("Escape");
      await context.close();
    },
  );

  it(
    "cancels a run, reports a network cut while polling, and asks to overwrite on a 409",
    { timeout: 90_000 },
    async () => {
      const query = await createQuery({
        name: "Slow",
        query: "select count(*) as n from range(3000000000) where random() < 0",
      });
      const { page, context } = await signedIn();
      await page.goto(`/queries/${query.id}/source`);
      await poll(() => page.textContent("[data-testid=query-editor]")).toContain("range");
      await page.click("[data-testid=execute-query]");
      await page.waitForSelector("[data-testid=cancel-execution]");
      await screenshot(page, "query-running-desktop");
      await page.click("[data-testid=cancel-execution]");
      await poll(() => page.textContent("body"), 20_000).toContain("Error running query:");

      // Network cut while polling the job.
      await page.route("**/api/jobs/**", (route) => route.abort("internetdisconnected"));
      const started = page.waitForResponse("**/api/query_results");
      await page.click("[data-testid=execute-query]");
      const { job } = (await (await started).json()) as { job: { id: string } };
      await poll(() => page.textContent("[data-testid=execution-error]"), 20_000).toContain(
        "failed communicating with server. Please check your Internet connection and try again.",
      );
      await page.unroute("**/api/jobs/**");
      // The server still runs it: stop it so the next runs are not queued behind it.
      await app.api.request("DELETE", `/api/jobs/${job.id}`);

      // Someone else saved meanwhile: a 409 asks to overwrite; the typed text is kept.
      await app.api.post(`/api/queries/${query.id}`, {
        version: 1,
        description: "changed elsewhere",
      });
      await page.route(`**/api/queries/${query.id}`, async (route) => {
        const body = route.request().postDataJSON() as { version?: number } | null;
        if (route.request().method() === "POST" && body?.version !== undefined) {
          await route.fulfill({
            status: 409,
            contentType: "application/json",
            body: JSON.stringify({ message: "Conflict" }),
          });
        } else {
          await route.continue();
        }
      });
      const editor = page.locator("[data-testid=query-editor] .cm-content");
      await editor.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type(" -- mine");
      await page.click("[data-testid=save-query]");
      await poll(() => page.textContent(".ant-modal-confirm")).toContain("Overwrite Query");
      expect(await editor.textContent()).toContain("-- mine");
      await animationsSettled(page);
      await page.click(".ant-modal-confirm >> button:has-text('Overwrite')");
      await poll(
        async () =>
          ((await app.api.get(`/api/queries/${query.id}`)).body as { query: string }).query,
      ).toContain("-- mine");
      await context.close();
    },
  );

  it("schedules, forks, archives, downloads and embeds a query", { timeout: 90_000 }, async () => {
    const query = await createQuery({
      name: "Products",
      query: "select name from products order by name limit 3",
    });
    const unsafe = await createQuery({
      name: "Unsafe",
      query: "select '{{ t }}' as t",
      options: { parameters: [{ name: "t", title: "t", type: "text", value: "x" }] },
    });
    const { page, context } = await signedIn();
    await page.goto(`/queries/${query.id}/source`);
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("3 Rows");

    // Refresh schedule: every day at a time, shown with its UTC equivalent.
    await page.click("[data-testid=schedule-button]");
    await page.click("[data-testid=schedule-interval]");
    await page.keyboard.type("1 day");
    await page.keyboard.press("Enter");
    await poll(() => page.textContent("[data-testid=schedule-dialog]")).toContain("UTC 00:15");
    await screenshot(page, "query-schedule-desktop");
    await page.click("[data-testid=schedule-dialog] >> button:has-text('OK')");
    await poll(
      async () =>
        (
          (await app.api.get(`/api/queries/${query.id}`)).body as {
            schedule: { interval: number } | null;
          }
        ).schedule?.interval,
    ).toBe(86400);

    // Download links point at the server's result routes.
    await page.click("[data-testid=download-menu]");
    const href = await page.getAttribute("text=Download as CSV File", "href");
    expect(href).toMatch(new RegExp(`/api/queries/${query.id}/results/\\d+\\.csv`));
    const csv = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(csv.split(/\r?\n/)[0]).toBe("name");
    await page.keyboard.press("Escape");

    // Fork opens the copy in a new tab.
    const [forked] = await Promise.all([
      context.waitForEvent("page"),
      (async () => {
        await page.click("[data-testid=query-actions]");
        await page.click(".ant-dropdown-menu-item >> text=Fork");
      })(),
    ]);
    await forked.waitForURL(/\/queries\/\d+\/source/);
    await forked.waitForLoadState();
    await screenshot(forked, "query-fork-desktop");
    await poll(() => forked.textContent("[data-testid=query-name]")).toContain("Copy of");
    await forked.close();

    // Archive asks first.
    await page.click("[data-testid=query-actions]");
    await page.click(".ant-dropdown-menu-item >> text=Archive");
    await poll(() => page.textContent(".ant-modal-confirm")).toContain(
      "Are you sure you want to archive this query?",
    );
    await animationsSettled(page);
    await page.click(".ant-modal-confirm >> button:has-text('Archive')");
    await poll(() => page.textContent("body")).toContain("Archived");

    // The embed dialog refuses a query with a text parameter.
    await page.goto(`/queries/${unsafe.id}`);
    await page.click("[data-testid=query-actions]");
    await page.click(".ant-dropdown-menu-item >> text=Embed");
    await poll(() => page.textContent("[data-testid=embed-dialog]")).toContain(
      "Currently it is not possible to embed queries that contain text parameters.",
    );

    // The embed page renders the visualization with the query's API key.
    const visId = query.visualizations[0].id;
    await page.goto(
      `/embed/query/${query.id}/visualization/${visId}?api_key=${query.api_key}&hide_parameters`,
    );
    await poll(() => page.textContent("body")).toContain("Products");
    await screenshot(page, "query-embed-desktop");
    await page.goto(`/embed/query/${query.id}/visualization/999999?api_key=${query.api_key}`);
    await poll(() => page.textContent("body")).toContain("Visualization does not exist");
    await context.close();
  });

  it("opens an embed without a session, with the api_key only", { timeout: 60_000 }, async () => {
    const query = await createQuery({ name: "Embedded", query: "select 1 as a" });
    const anon = await app.open();
    // The router's warnings and errors go to the console of the page that embeds us.
    const logged: string[] = [];
    anon.page.on("console", (message) => {
      if (message.type() === "warning" || message.type() === "error") logged.push(message.text());
    });
    const visId = query.visualizations[0].id;
    await anon.page.goto(
      `/embed/query/${query.id}/visualization/${visId}?api_key=${query.api_key}`,
    );
    expect(new URL(anon.page.url()).pathname).toBe(
      `/embed/query/${query.id}/visualization/${visId}`,
    );
    await poll(() => anon.page.textContent("body")).toContain("Embedded");
    await poll(() => anon.page.locator("[data-testid=download-menu]").count()).toBe(1);
    expect(logged.filter((text) => /HydrateFallback|react-router/i.test(text))).toEqual([]);
    expect(logged).toEqual([]);
    await anon.context.close();
  });

  it(
    "shows the read-only view: refresh, parameters from the address, fullscreen",
    { timeout: 60_000 },
    async () => {
      const query = await createQuery({
        name: "Viewed",
        query: "select {{ n }} * 2 as doubled",
        description: "Doubles a number",
        options: { parameters: [{ name: "n", title: "Number", type: "number", value: 1 }] },
      });
      const { page, context } = await signedIn();
      await page.goto(`/queries/${query.id}?p_n=21`);
      await poll(() => page.textContent("[data-testid=results]")).toContain("42");
      expect(await page.textContent("body")).toContain("Doubles a number");
      await page.click("button:has-text('Refresh Now')");
      await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");
      await screenshot(page, "query-view-desktop");
      await page.keyboard.press("Alt+f");
      await poll(() => page.locator("[data-testid=query-name]").count()).toBe(0);
      await page.keyboard.press("Alt+f");
      await poll(() => page.locator("[data-testid=query-name]").count()).toBe(1);
      await context.close();

      const phone = await signedIn(PHONE);
      await phone.page.goto(`/queries/${query.id}?p_n=21`);
      await poll(() => phone.page.textContent("[data-testid=results]")).toContain("42");
      await poll(() => phone.page.locator("[data-testid=download-menu]").count()).toBe(1);
      await expectCompactQueryHeader(phone.page);
      await screenshot(phone.page, "query-view-phone");
      await phone.context.close();
    },
  );

  it(
    "renders a 100,000-row result without freezing, and adds a visualization",
    { timeout: 90_000 },
    async () => {
      const query = await createQuery({
        name: "Big",
        query: "select range as i, range % 7 as k from range(100000)",
        options: { apply_auto_limit: false },
      });
      const { page, context } = await signedIn();
      await page.goto(`/queries/${query.id}/source`);
      await page.click("[data-testid=execute-query]");
      await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toMatch(
        /100,?000 Rows/,
      );
      // The page answers at once: only the visible rows are in the document.
      const started = Date.now();
      const rowsInDocument = await page.evaluate(
        () => document.querySelectorAll("[data-testid=results] [role=row]").length,
      );
      expect(rowsInDocument).toBeGreaterThan(1);
      expect(rowsInDocument).toBeLessThan(500);
      expect(Date.now() - started).toBeLessThan(2000);
      await screenshot(page, "query-big-result-desktop");

      await page.click("button:has-text('Add Visualization')");
      await page.waitForSelector("[data-testid=save-visualization]");
      await animationsSettled(page);
      await page.click("[data-testid=save-visualization]");
      await poll(() => page.textContent("body")).toContain("Visualization saved");
      await poll(() => page.url()).toMatch(/#\d+$/);
      await poll(
        async () =>
          ((await app.api.get(`/api/queries/${query.id}`)).body as { visualizations: unknown[] })
            .visualizations.length,
      ).toBe(2);

      // Delete it again: a failing call says so and keeps it; a confirmed delete removes its tab.
      const visualizations = async () =>
        ((await app.api.get(`/api/queries/${query.id}`)).body as { visualizations: unknown[] })
          .visualizations.length;
      await page.route("**/api/visualizations/*", (route) =>
        route.request().method() === "DELETE"
          ? route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"x"}' })
          : route.continue(),
      );
      await page.click("button:has-text('Edit Visualization')");
      await animationsSettled(page);
      await page.click(".ant-modal-footer button:has-text('Delete')");
      await poll(() => page.textContent("body")).toContain(
        "Are you sure you want to delete this visualization?",
      );
      await animationsSettled(page);
      await page.click(".ant-modal-confirm-btns button:has-text('Delete')");
      await poll(() => page.textContent("body")).toContain("Error deleting visualization.");
      await poll(() => page.textContent("body")).toContain("Maybe it's used in a dashboard?");
      expect(await visualizations()).toBe(2);
      await page.unroute("**/api/visualizations/*");
      await animationsSettled(page);
      await page.click(".ant-modal-footer button:has-text('Delete')");
      await animationsSettled(page);
      await page.click(".ant-modal-confirm-btns button:has-text('Delete')");
      await poll(visualizations).toBe(1);
      await poll(() => page.locator(".ant-tabs-tab").count()).toBe(1);
      await context.close();
    },
  );

  it(
    "gives a new chart the organisation's date/time format, even when saved at once",
    { timeout: 90_000 },
    async () => {
      const changed = await app.api.post("/api/settings/organization", {
        date_format: "YYYY-MM-DD",
        time_format: "HH:mm:ss",
      });
      expect(changed.status).toBe(200);
      try {
        const query = await createQuery({
          name: "Orders today",
          query: "select current_date as day, 3 as orders",
        });
        const charts = async () =>
          (
            (await app.api.get(`/api/queries/${query.id}`)).body as {
              visualizations: { id: number; type: string; options: { dateTimeFormat?: string } }[];
            }
          ).visualizations.filter((v) => v.type === "CHART");
        const { page, context } = await signedIn();
        // The public client config answers late: nothing may be built from the defaults meanwhile.
        await page.route("**/api/config", async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 4000));
          await route.continue().catch(() => undefined);
        });
        await page.goto(`/queries/${query.id}/source`);
        await page.click("[data-testid=execute-query]");
        await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");

        // Saved as soon as the dialog is open (its opening zoom lasts 0.3 s; the config, 4 s).
        await page.click("button:has-text('Add Visualization')");
        await animationsSettled(page);
        await page.click("[data-testid=save-visualization]");
        await poll(() => page.textContent("body")).toContain("Visualization saved");
        await poll(async () => (await charts()).length).toBe(1);
        expect((await charts())[0].options.dateTimeFormat).toBe("YYYY-MM-DD HH:mm:ss");

        // A chart picked again after another type starts from the organisation's format too.
        await page.click("button:has-text('Add Visualization')");
        await animationsSettled(page);
        // Each list opens with a slide: an option clicked mid-slide can be missed under load.
        for (const type of ["Table", "Chart"]) {
          await page.click("[data-testid=visualization-type]");
          await animationsSettled(page);
          await page.click(`.ant-select-item-option[title=${type}]`);
          await page.waitForSelector(".ant-select-dropdown", { state: "hidden" });
        }
        await page.click("[data-testid=save-visualization]");
        await poll(async () => (await charts()).length).toBe(2);
        for (const chart of await charts()) {
          expect(chart.options.dateTimeFormat).toBe("YYYY-MM-DD HH:mm:ss");
        }
        await context.close();
      } finally {
        await app.api.post("/api/settings/organization", {
          date_format: "YYYY-MM-DD",
          time_format: "HH:mm",
        });
      }
    },
  );

  it(
    "shows each pie slice's drawn colour in the editor's Colors tab",
    { timeout: 60_000 },
    async () => {
      const query = await createQuery({
        name: "Orders by status",
        query: "select status, count(*) as n from orders group by 1 order by 1",
      });
      const pie = await app.api.post("/api/visualizations", {
        query_id: query.id,
        type: "CHART",
        name: "Pie",
        options: { globalSeriesType: "pie", columnMapping: { status: "x", n: "y" } },
      });
      expect(pie.status).toBe(200);
      const { page, context } = await signedIn();
      await page.goto(`/queries/${query.id}/source#${pie.body.id}`);
      await page.click("[data-testid=execute-query]");
      await poll(() => page.textContent("[data-testid=result-rows]")).toContain("Rows");
      await page.click("button:has-text('Edit Visualization')");
      await page.click(".ant-modal .ant-tabs-tab:has-text('Colors')");
      const swatches = page.locator(".ant-modal .ant-color-picker-trigger:visible");
      await poll(() => swatches.count()).toBeGreaterThan(2);
      const texts = await swatches.allTextContents();
      expect(texts.join(" ")).not.toContain("Transparent");
      for (const text of texts) expect(text).toMatch(/#[0-9A-Fa-f]{6}/);
      await context.close();
    },
  );

  it("manages query snippets and inserts them by trigger", { timeout: 60_000 }, async () => {
    const { page, context } = await signedIn();
    await page.goto("/query_snippets");
    await poll(() => page.textContent("body")).toContain("There are no query snippets yet.");
    await page.goto("/query_snippets/new");
    await page.click("[data-testid=save-snippet]");
    await poll(() => page.textContent("[data-testid=snippet-dialog]")).toContain(
      "This field is required.",
    );
    await page.fill("input[aria-label=Trigger]", "cnt");
    await page.fill("textarea[aria-label=Snippet]", "select count(*) from orders");
    await page.click("[data-testid=save-snippet]");
    await poll(() => page.textContent("[data-testid=snippets-table]")).toContain("cnt");
    await screenshot(page, "query-snippets-desktop");

    await page.goto("/queries/new");
    await poll(() => page.textContent("[data-testid=schema-browser]")).toContain("orders");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.type("cnt");
    await poll(() => page.textContent(".cm-tooltip-autocomplete")).toContain("snippet");
    await page.locator(".cm-tooltip-autocomplete li", { hasText: /^cnt/ }).click();
    await poll(() => page.textContent("[data-testid=query-editor]")).toContain(
      "select count(*) from orders",
    );
    await context.close();
  });
});
