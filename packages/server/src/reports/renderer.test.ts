// The renderer against real Chromium (Debian's, SIGHTLINE_CHROMIUM) and pages served here: a
// ready page painted as PNG and PDF with its text read back, a page that never settles named
// "did not finish", and a missing browser reported as a clear error.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUIRE_SERVICES } from "../testing/services";
import { RenderError, ReportRenderer } from "./renderer";

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? "/usr/bin/chromium";
const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
if (REQUIRE_SERVICES && !HAS_CHROMIUM)
  throw new Error(`Chromium is required under CI: ${CHROMIUM}`);

const READY_PAGE = `<!doctype html><html><body style="font-family:sans-serif">
<h1>Weekly numbers</h1>
<div id="counter" style="font-size:64px">waiting</div>
<table id="t"></table>
<script>
setTimeout(() => {
  document.getElementById("counter").textContent = "4,242";
  const rows = Array.from({ length: 40 }, (_, i) => "<tr><td>Row " + i + "</td><td>" + i * 7 + "</td></tr>");
  document.getElementById("t").innerHTML = rows.join("");
  window.__reportWidgets = [
    { widget_id: 1, name: "Orders", state: "painted" },
    { widget_id: 2, name: "Empty one", state: "empty" },
  ];
  document.documentElement.dataset.reportReady = "true";
}, 300);
</script></body></html>`;

const STUCK_PAGE = `<!doctype html><html><body><p>Loading…</p><script>
window.__reportWidgets = [
  { widget_id: 1, name: "Fast", state: "painted" },
  { widget_id: 2, name: "Slow", state: "loading" },
];
</script></body></html>`;

describe.skipIf(!HAS_CHROMIUM)("report renderer", () => {
  let server: http.Server;
  let base: string;
  const renderer = new ReportRenderer({ chromiumPath: CHROMIUM, rendersPerBrowser: 2 });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(req.url?.startsWith("/stuck") ? STUCK_PAGE : READY_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await renderer.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("paints a ready page as a full-page PNG with a thumbnail, and reads its widgets", async () => {
    const out = await renderer.render({ url: `${base}/ready`, output: "png", budgetMs: 20_000 });
    expect(out.ready).toBe(true);
    expect(out.text).toContain("4,242");
    expect(out.text).not.toContain("waiting");
    expect(out.file!.subarray(1, 4).toString()).toBe("PNG");
    expect(out.file!.length).toBeGreaterThan(10_000);
    // Full page: taller than the 600 px viewport (40 table rows).
    expect(out.file!.readUInt32BE(20)).toBeGreaterThan(600);
    expect(out.file!.readUInt32BE(16)).toBe(1200);
    expect(out.thumbnail.readUInt32BE(16)).toBe(300);
    expect(out.thumbnail.length).toBeLessThan(out.file!.length);
    expect(out.widgets).toEqual([
      { widget_id: 1, name: "Orders", state: "painted" },
      { widget_id: 2, name: "Empty one", state: "empty" },
    ]);
  });

  it("prints a PDF, on a new browser after the recycle count", async () => {
    await renderer.render({ url: `${base}/ready`, output: "none", budgetMs: 20_000 });
    const out = await renderer.render({ url: `${base}/ready`, output: "pdf", budgetMs: 20_000 });
    expect(out.file!.subarray(0, 5).toString()).toBe("%PDF-");
    expect(out.file!.length).toBeGreaterThan(5_000);
    const stats = renderer.getStats();
    expect(stats.renders).toBe(3);
    expect(stats.browsersStarted).toBe(2);
    expect(stats.peakBrowserMemoryBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("names a widget that did not settle within the budget as did_not_finish", async () => {
    const out = await renderer.render({ url: `${base}/stuck`, output: "png", budgetMs: 2_000 });
    expect(out.ready).toBe(false);
    expect(out.widgets).toEqual([
      { widget_id: 1, name: "Fast", state: "painted" },
      { widget_id: 2, name: "Slow", state: "did_not_finish", error: "It did not finish in time." },
    ]);
  });

  it("reports a missing browser as a clear error", async () => {
    const missing = new ReportRenderer({ chromiumPath: "/nonexistent/chromium" });
    await expect(
      missing.render({ url: `${base}/ready`, output: "png", budgetMs: 5_000 }),
    ).rejects.toThrow(RenderError);
    await expect(
      missing.render({ url: `${base}/ready`, output: "png", budgetMs: 5_000 }),
    ).rejects.toThrow(/no browser at \/nonexistent\/chromium/);
  });

  it("leaves the print token out of an error naming the page's address", async () => {
    const error = await renderer
      .render({
        url: "http://127.0.0.1:9/reports/print/7?token=SECRET123",
        output: "png",
        budgetMs: 5_000,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toMatch(/did not open/);
    expect((error as Error).message).not.toContain("SECRET123");
  });
});
