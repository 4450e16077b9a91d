// Uploaded files in the browser: an "Uploaded files" data source made in the New Data Source
// dialog, a CSV dropped on its Files section (progress, then listed with size and date), a file
// refused before upload (too big, wrong type), Replace and Delete; then a new query over the
// upload: the schema browser lists it with its columns, the query runs and is charted. Desktop
// and phone screenshots.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { settledJob } from "../packages/server/src/testing/apiServer";
import { randomName } from "../packages/server/src/testing/services";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { pollFor } from "./fixtures/poll";

vi.setConfig({ testTimeout: 120_000 });
const poll = pollFor(20_000);

const SALES = "region,amount\nnorth,10\nsouth,2.5\neast,7\nwest,4\n";

/** Drops files on the drop area as a person dragging them from their desktop does. */
async function dropFiles(page: Page, files: { name: string; text: string }[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name, { type: "text/csv" }));
    return data;
  }, files);
  const area = page.locator(".ant-upload-drag .ant-upload-btn");
  await area.dispatchEvent("dragenter", { dataTransfer: transfer });
  await area.dispatchEvent("dragover", { dataTransfer: transfer });
  await area.dispatchEvent("drop", { dataTransfer: transfer });
}

const fileRows = (page: Page) => page.getByTestId("uploaded-file").allTextContents();

describe("uploaded files in the browser", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_UPLOAD_MAX_BYTES: String(1024 * 1024) } });
  let admin: Session;
  let id: number;
  const name = randomName("Uploads");

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  it("creates the data source, uploads by drag and drop, replaces and deletes", async () => {
    const { page } = admin;
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill("upload");
    await poll(() => dialog.getByTestId("type-uploads").count()).toBe(1);
    await dialog.getByTestId("type-uploads").click();
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    id = Number(/(\d+)$/.exec(page.url())![1]);

    const files = page.getByTestId("data-source-files");
    await poll(() => files.textContent()).toContain("up to 1 MB each");
    expect(await files.textContent()).toContain("No files uploaded yet.");

    await dropFiles(page, [{ name: "sales.csv", text: SALES }]);
    await poll(() => fileRows(page)).toHaveLength(1);
    const row = (await fileRows(page))[0]!;
    expect(row).toContain("sales.csv");
    expect(row).toContain(`${SALES.length} bytes`);
    expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await poll(() => page.getByTestId("upload-progress").first().textContent()).toContain(
      "sales.csv",
    );
    await poll(() =>
      page.getByTestId("upload-progress").first().locator(".ant-progress-status-success").count(),
    ).toBe(1);

    // Refused before sending: too big, and a type that cannot be queried (through the file input).
    await page
      .locator("[data-testid=data-source-files] input[type=file]")
      .first()
      .setInputFiles([
        { name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(1024 * 1024 + 1, 65) },
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
      ]);
    const progress = page.getByTestId("upload-progress");
    await poll(() => progress.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringContaining("The file is larger than the upload limit of 1 MB."),
        expect.stringContaining('"notes.txt" is not a file type that can be queried'),
      ]),
    );
    await screenshot(page, "file-uploads-desktop");

    // Replace keeps the name; a file of another type is refused.
    const more = `${SALES}south,1\n`;
    await page
      .getByTestId("uploaded-file")
      .getByRole("button", { name: /Replace$/ })
      .click();
    await page.getByTestId("replace-input").setInputFiles({
      name: "whatever.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(more),
    });
    await poll(() => page.locator(".ant-notification").textContent()).toContain(
      "Replaced sales.csv.",
    );
    await poll(async () => (await fileRows(page))[0]).toContain(`${more.length} bytes`);

    // A second file, then deleted with its confirmation.
    await dropFiles(page, [{ name: "spare.csv", text: "x\n1\n" }]);
    await poll(() => fileRows(page)).toHaveLength(2);
    const spare = page.getByTestId("uploaded-file").filter({ hasText: "spare.csv" });
    await spare.getByRole("button", { name: "Delete" }).click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).click();
    await poll(() => fileRows(page)).toHaveLength(1);
    const listed = await app.api.get<{ files: { name: string }[] }>(
      `/api/data_sources/${id}/files`,
    );
    expect(listed.body.files.map((f) => f.name)).toEqual(["sales.csv"]);
  });

  it("shows the Files section on a phone", async () => {
    const phone = await app.openSignedIn(PHONE);
    await phone.page.goto(`/data_sources/${id}`);
    await poll(() => fileRows(phone.page)).toHaveLength(1);
    await screenshot(phone.page, "file-uploads-phone");
    await phone.context.close();
  });

  it("queries the upload: schema browser, run, chart", async () => {
    const { page } = admin;
    await page.goto("/queries/new");
    await page.locator("[data-testid=query-editor]").waitFor();
    await page.click("[data-testid=data-source-picker]");
    await page.click(`.ant-select-item-option[title='${name}']`);
    const schema = page.getByTestId("schema-browser");
    await schema.getByText("sales", { exact: true }).click();
    await poll(() => schema.textContent()).toContain("amount");
    expect(await schema.textContent()).toContain("region");

    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.insertText(
      "SELECT region, sum(amount) AS amount FROM sales GROUP BY region ORDER BY region",
    );
    await page.keyboard.press("Control+Enter");
    await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("4 Rows");
    expect(await page.getByTestId("results").textContent()).toContain("north");
    await screenshot(page, "file-uploads-query-desktop");

    await page.click("button:has-text('Add Visualization')");
    await page.waitForSelector("[data-testid=save-visualization]");
    await animationsSettled(page);
    await page.waitForTimeout(1500); // the bars' animation, for the picture
    expect(await page.locator(".ant-modal").textContent()).not.toContain("could not be drawn");
    await screenshot(page, "file-uploads-chart-desktop");
    await page.click("[data-testid=save-visualization]");
    await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual(["Table", "Chart"]);
    const queryId = Number(/\/queries\/(\d+)/.exec(page.url())![1]);
    const saved = await app.api.get<{ visualizations: { type: string; options: any }[] }>(
      `/api/queries/${queryId}`,
    );
    const chart = saved.body.visualizations.find((v) => v.type === "CHART")!;
    expect(chart.options.columnMapping).toEqual({ region: "x", amount: "y" });
  });

  it("takes impatient users: two files at once, odd names, double clicks, offline, replace mid-query", async () => {
    // A page of its own: the query test before leaves its editor open in the shared one.
    const { page, context } = await app.openSignedIn();
    await page.goto(`/data_sources/${id}`);
    await poll(() => fileRows(page)).toHaveLength(1);
    const names = async () =>
      (await app.api.get<{ files: { name: string }[] }>(`/api/data_sources/${id}/files`)).body.files
        .map((f) => f.name)
        .sort();

    // Two files dropped at once, one named as a Mac writes accents (decomposed), one with "..".
    const accented = "Ventes e\u0301te\u0301 2026.csv";
    await dropFiles(page, [
      { name: accented, text: "x\n1\n" },
      { name: "../evil.csv", text: "x\n2\n" },
    ]);
    await poll(() => fileRows(page)).toHaveLength(2);
    expect(await names()).toEqual(["Ventes été 2026.csv", "sales.csv"].sort());
    await poll(() => page.getByTestId("upload-progress").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining("is not a plain file name")]),
    );

    // A query reading sales.csv while it is replaced: it ends (its own file or an error in
    // words), and the next run reads the new file.
    const slow = await app.api.post("/api/query_results", {
      data_source_id: id,
      query: "SELECT count(*) AS n FROM sales, range(20000000) r",
      max_age: 0,
    });
    const replaced = `${SALES}south,1\nnorth,1\n`;
    await page
      .getByTestId("uploaded-file")
      .filter({ hasText: "sales.csv" })
      .getByRole("button", { name: /Replace$/ })
      .click();
    await page.getByTestId("replace-input").setInputFiles({
      name: "sales.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(replaced),
    });
    const job = await settledJob(app.api as never, slow.body);
    expect([3, 4]).toContain(job.status);
    if (job.status === 4) expect(job.error).toBeTruthy();
    const after = await app.api.post("/api/query_results", {
      data_source_id: id,
      query: "SELECT count(*) AS n FROM sales",
      max_age: 0,
    });
    const done = after.body.job ? await settledJob(app.api as never, after.body) : null;
    const resultId = done ? done.query_result_id : after.body.query_result.id;
    const rows = await app.api.get<{ query_result: { data: { rows: { n: number }[] } } }>(
      `/api/query_results/${resultId}`,
    );
    expect(Number(rows.body.query_result.data.rows[0]!.n)).toBe(6);

    // Delete double-clicked: deleted once, no error; then the same name uploaded at once.
    const row = page.getByTestId("uploaded-file").filter({ hasText: "Ventes été" });
    await row.getByRole("button", { name: "Delete" }).click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).dblclick();
    await dropFiles(page, [{ name: "Ventes été 2026.csv", text: "x\n3\n" }]);
    await poll(() => page.locator(".ant-notification").textContent()).toContain(
      "Uploaded Ventes été 2026.csv.",
    );
    expect(await page.locator(".ant-notification-notice-error").count()).toBe(0);
    await poll(() => names()).toEqual(["Ventes été 2026.csv", "sales.csv"].sort());

    // Offline: the upload says so in words, nothing stored; back online it goes.
    await context.setOffline(true);
    await dropFiles(page, [{ name: "offline.csv", text: "x\n4\n" }]);
    await poll(() => page.getByTestId("upload-progress").first().textContent()).toContain(
      "check your Internet connection",
    );
    await screenshot(page, "file-uploads-offline-desktop");
    await page.setViewportSize(PHONE);
    await animationsSettled(page);
    await screenshot(page, "file-uploads-offline-phone");
    await page.setViewportSize(DESKTOP);
    // One row per file name, however the name's accents were spelled.
    expect(
      await page.getByTestId("upload-progress").filter({ hasText: "Ventes été" }).count(),
    ).toBe(1);
    // The failed upload's re-read of the list failed too: a warning, gone once back online.
    await poll(() => page.getByTestId("files-stale").count()).toBe(1);
    const tryAgain = page.getByTestId("files-stale").getByRole("button", { name: "Try again" });
    expect(await tryAgain.count()).toBe(1);
    await context.setOffline(false);
    await poll(() => page.getByTestId("files-stale").count(), 5_000).toBe(0);
    expect(await fileRows(page)).toHaveLength(2);
    expect(await names()).not.toContain("offline.csv");
    await context.close();
  });

  it("a data source deleted in another tab: Save and Test say so, Delete finishes the job", async () => {
    const made = await app.api.post<{ id: number }>("/api/data_sources", {
      type: "uploads",
      name: randomName("Two tabs"),
      options: {},
    });
    const { context, page } = await app.openSignedIn();
    const other = await context.newPage();
    await page.goto(`/data_sources/${made.body.id}`);
    await other.goto(`/data_sources/${made.body.id}`);
    await other.getByRole("button", { name: "Test Connection" }).waitFor();
    const gone = "This data source no longer exists: it was deleted.";
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources$/);

    await other.getByRole("button", { name: "Save" }).click();
    await poll(() => other.getByTestId("data-source-edit").textContent()).toContain(gone);
    await other.getByRole("button", { name: "Test Connection" }).click();
    await poll(() => other.locator(".ant-notification").textContent()).toContain(gone);
    await other.getByRole("button", { name: "Delete", exact: true }).click();
    await other.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).click();
    await poll(() => other.url()).toMatch(/\/data_sources$/);
    await poll(() => other.locator(".ant-notification").textContent()).toContain(
      "Data source deleted successfully.",
    );
    await context.close();
  });
});
