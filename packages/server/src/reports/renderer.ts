// The report renderer: Debian's Chromium driven by playwright-core. It only paints: it opens the
// print page (which reads the run's pinned results) and waits until the page says every widget
// is settled, then takes a PNG or PDF and a thumbnail. One browser per renderer, recycled after
// a number of renders or above a memory cap.
import fs from "node:fs";
import type { Browser } from "playwright-core";
import { browserRss } from "./browserMemory";
import type { RunWidget, WidgetState } from "./store";
import { PRINT_WIDTH } from "./printData";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/** A render that could not be made; the message is for the run's status (never a secret). */
export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RenderError";
  }
}

export interface RendererOptions {
  chromiumPath: string;
  /** A browser is closed and a new one started after this many renders. */
  rendersPerBrowser?: number;
  /** ... or once its processes use more than this many bytes. */
  memoryCapBytes?: number;
}

export interface RenderRequest {
  url: string;
  /** "png": a full-page image; "pdf": a PDF document; "none": only the thumbnail and widgets. */
  output: "png" | "pdf" | "none";
  /** The whole render, from opening the page to the last image. */
  budgetMs: number;
}

export interface RenderOutcome {
  /** The PNG or PDF asked for (null for "none"). */
  file: Buffer | null;
  thumbnail: Buffer;
  /** What the page said of each widget; unsettled ones are "did_not_finish". */
  widgets: RunWidget[];
  /** The page set reportReady before the budget ran out. */
  ready: boolean;
  /** The page's text, as painted (tests and the values table check against it). */
  text: string;
  elapsedMs: number;
}

export interface RendererStats {
  renders: number;
  lastRenderMs: number | null;
  totalRenderMs: number;
  browserMemoryBytes: number;
  peakBrowserMemoryBytes: number;
  browsersStarted: number;
}

/** What the page functions read in the browser (the server is compiled without the DOM types). */
interface BrowserGlobals {
  document: {
    documentElement: { dataset: Record<string, string | undefined> };
    body: { innerText: string };
    getElementById(id: string): { complete?: boolean } | null;
  };
  __reportWidgets?: unknown;
}

const THUMBNAIL_WIDTH = 300;
const THUMBNAIL_MAX_SOURCE_HEIGHT = 900;

/** A4 landscape is 297 mm wide: at 96 px/in, less 10 mm margins each side, ~1047 px. */
const PDF_SCALE = Math.round((((297 - 20) / 25.4) * 96 * 1000) / PRINT_WIDTH) / 1000;

const SETTLED: readonly WidgetState[] = ["painted", "empty", "failed", "did_not_finish"];

export class ReportRenderer {
  private browser: Browser | null = null;
  private rendersOnBrowser = 0;
  private readonly stats: RendererStats = {
    renders: 0,
    lastRenderMs: null,
    totalRenderMs: 0,
    browserMemoryBytes: 0,
    peakBrowserMemoryBytes: 0,
    browsersStarted: 0,
  };

  constructor(private readonly options: RendererOptions) {}

  private async launch(): Promise<Browser> {
    if (this.browser?.isConnected()) return this.browser;
    const path = this.options.chromiumPath;
    if (!fs.existsSync(path)) {
      throw new RenderError(
        `The report could not be drawn: no browser at ${path}. Install Debian's chromium package or set SIGHTLINE_CHROMIUM.`,
      );
    }
    const { chromium } = await import("playwright-core");
    try {
      this.browser = await chromium.launch({
        executablePath: path,
        args: CHROMIUM_FLAGS,
        timeout: 30_000,
      });
    } catch (error) {
      throw new RenderError(
        `The report could not be drawn: the browser at ${path} did not start (${firstLine(error)}).`,
      );
    }
    this.rendersOnBrowser = 0;
    this.stats.browsersStarted += 1;
    return this.browser;
  }

  async render(request: RenderRequest): Promise<RenderOutcome> {
    const started = Date.now();
    const deadline = started + request.budgetMs;
    const browser = await this.launch();
    const context = await browser.newContext({
      viewport: { width: PRINT_WIDTH, height: 600 },
      deviceScaleFactor: 1,
      colorScheme: "light",
    });
    try {
      const page = await context.newPage();
      try {
        await page.goto(request.url, {
          waitUntil: "domcontentloaded",
          timeout: Math.max(1000, deadline - Date.now()),
        });
      } catch (error) {
        throw new RenderError(`The report page did not open: ${firstLine(error)}`);
      }
      let ready = true;
      let waitError = "";
      try {
        await page.waitForFunction(
          () =>
            (globalThis as unknown as BrowserGlobals).document.documentElement.dataset
              .reportReady === "true",
          null,
          { timeout: Math.max(500, deadline - Date.now()), polling: 100 },
        );
      } catch (error) {
        ready = false;
        waitError = firstLine(error);
      }
      const said = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).__reportWidgets ?? null,
      );
      const widgets = readWidgets(said, ready);
      if (!ready && said === null) {
        throw new RenderError(
          `The report page did not get ready within ${Math.round(request.budgetMs / 1000)} s` +
            (/timeout/i.test(waitError) ? "." : ` (${waitError}).`),
        );
      }
      const text = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.body.innerText,
      );
      let file: Buffer | null = null;
      const image = await page.screenshot({ fullPage: true, type: "png" });
      if (request.output === "png") file = image;
      if (request.output === "pdf") {
        await page.emulateMedia({ media: "screen" });
        file = await page.pdf({
          format: "A4",
          landscape: true,
          printBackground: true,
          scale: PDF_SCALE,
          margin: { top: "10mm", bottom: "10mm", left: "10mm", right: "10mm" },
        });
      }
      const thumbnail = await this.thumbnailOf(page.context(), image);
      const elapsedMs = Date.now() - started;
      this.stats.renders += 1;
      this.stats.lastRenderMs = elapsedMs;
      this.stats.totalRenderMs += elapsedMs;
      return { file, thumbnail, widgets, ready, text, elapsedMs };
    } finally {
      await context.close().catch(() => {});
      this.rendersOnBrowser += 1;
      await this.recycleIfDue();
    }
  }

  /** A small PNG of the image's top: drawn by the browser itself, scaled to 300 px wide. */
  private async thumbnailOf(
    context: Awaited<ReturnType<Browser["newContext"]>>,
    image: Buffer,
  ): Promise<Buffer> {
    const page = await context.newPage();
    await page.setViewportSize({
      width: THUMBNAIL_WIDTH,
      height: Math.round((THUMBNAIL_MAX_SOURCE_HEIGHT * THUMBNAIL_WIDTH) / PRINT_WIDTH),
    });
    await page.setContent(
      `<body style="margin:0;overflow:hidden"><img id="i" style="width:${THUMBNAIL_WIDTH}px;display:block" src="data:image/png;base64,${image.toString("base64")}"></body>`,
    );
    await page.waitForFunction(
      () =>
        (globalThis as unknown as BrowserGlobals).document.getElementById("i")?.complete === true,
    );
    const shot = await page.screenshot({ type: "png" });
    await page.close();
    return shot;
  }

  private async recycleIfDue(): Promise<void> {
    const memory = this.browser ? browserRss() : 0;
    this.stats.browserMemoryBytes = memory;
    this.stats.peakBrowserMemoryBytes = Math.max(this.stats.peakBrowserMemoryBytes, memory);
    const tooMany = this.rendersOnBrowser >= (this.options.rendersPerBrowser ?? 25);
    const tooBig = memory > (this.options.memoryCapBytes ?? 1024 * 1024 * 1024);
    if (tooMany || tooBig || !this.browser?.isConnected()) await this.closeBrowser();
  }

  private async closeBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.close().catch(() => {});
  }

  getStats(): RendererStats {
    return { ...this.stats };
  }

  async close(): Promise<void> {
    await this.closeBrowser();
  }
}

/** The error's first line for the run's status, the print token taken out of any address in it. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split("\n")[0]!
    .replace(/([?&]token=)[^&\s"']*/g, "$1…")
    .slice(0, 300);
}

/** The page's widget list, checked; an unsettled widget "did not finish". */
function readWidgets(said: unknown, ready: boolean): RunWidget[] {
  if (!Array.isArray(said)) return [];
  const out: RunWidget[] = [];
  for (const item of said) {
    if (typeof item !== "object" || item === null) continue;
    const w = item as Record<string, unknown>;
    const id = Number(w.widget_id);
    if (!Number.isSafeInteger(id)) continue;
    let state = (SETTLED as readonly unknown[]).includes(w.state)
      ? (w.state as WidgetState)
      : "did_not_finish";
    if (!ready && state !== "painted" && state !== "empty" && state !== "failed") {
      state = "did_not_finish";
    }
    const widget: RunWidget = {
      widget_id: id,
      name: typeof w.name === "string" ? w.name.slice(0, 200) : `Widget ${id}`,
      state,
    };
    if (typeof w.error === "string" && w.error) widget.error = w.error.slice(0, 500);
    else if (state === "did_not_finish") widget.error = "It did not finish in time.";
    out.push(widget);
  }
  return out;
}
