// Every ECharts type on a dashboard widget draws its texts (axis titles, labels, words) inside
// its canvas, at 1280×800 and 390×844: nothing cut off at a widget's edge.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { BOTH_VIEWPORTS, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { createDashboard, waitForWidgetsDrawn } from "./fixtures/dashboards";
import { addDemoWidgets, demoWidget } from "./fixtures/demoWidgets";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(60_000);

const WIDGETS = [
  demoWidget(
    "CHART",
    { col: 0, row: 0, sizeX: 3, sizeY: 8 },
    // Axis titles: their texts must fit too.
    {
      xAxis: { type: "-", labels: { enabled: true }, title: { text: "Order status" } },
      yAxis: [{ type: "linear", title: { text: "Orders placed" } }],
    },
  ),
  demoWidget("BOXPLOT", { col: 3, row: 0, sizeX: 3, sizeY: 8 }),
  demoWidget("SANKEY", { col: 0, row: 8, sizeX: 3, sizeY: 7 }),
  demoWidget("SUNBURST_SEQUENCE", { col: 3, row: 8, sizeX: 3, sizeY: 7 }),
  demoWidget("WORD_CLOUD", { col: 0, row: 15, sizeX: 3, sizeY: 8 }),
  demoWidget("FUNNEL", { col: 3, row: 15, sizeX: 3, sizeY: 8 }),
];
const CANVASES = WIDGETS.filter((w) => w.type !== "FUNNEL").length;

/** The shown texts ECharts painted (partly) outside their canvas, in every chart of the page. */
function textsOutside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rect = { x: number; y: number; width: number; height: number };
    type Drawn = {
      type: string;
      style?: { text?: string };
      invisible?: boolean;
      ignore?: boolean;
      parent?: Drawn;
      /** Its own box, before `transform` (the global one, [a, b, c, d, e, f]). */
      getBoundingRect(): Rect;
      transform?: number[] | null;
    };
    type Chart = {
      getWidth(): number;
      getHeight(): number;
      getZr(): { storage: { getDisplayList(update: boolean): Drawn[] } };
    };
    const echarts = (
      window as unknown as { sightlineECharts: { getInstanceByDom(el: Element): Chart } }
    ).sightlineECharts;
    const shown = (el: Drawn | undefined): boolean =>
      !el || (!el.invisible && !el.ignore && shown(el.parent));
    // The text's own box where it is drawn (getPaintRect adds a margin for redrawing).
    const tightBox = (drawn: Drawn): Rect => {
      const b = drawn.getBoundingRect();
      const [a, c1, c, d, e, f] = drawn.transform ?? [1, 0, 0, 1, 0, 0];
      const corners = [
        [b.x, b.y],
        [b.x + b.width, b.y],
        [b.x, b.y + b.height],
        [b.x + b.width, b.y + b.height],
      ].map(([x, y]) => [a * x + c * y + e, c1 * x + d * y + f]);
      const xs = corners.map((p) => p[0]);
      const ys = corners.map((p) => p[1]);
      const [x, y] = [Math.min(...xs), Math.min(...ys)];
      return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll("[_echarts_instance_]")) {
      const chart = echarts.getInstanceByDom(el);
      const [width, height] = [chart.getWidth(), chart.getHeight()];
      for (const drawn of chart.getZr().storage.getDisplayList(true)) {
        if (drawn.type !== "tspan" || !drawn.style?.text || !shown(drawn)) continue;
        const r = tightBox(drawn);
        // A pixel of leeway for antialiasing.
        if (r.x < -1 || r.y < -1 || r.x + r.width > width + 1 || r.y + r.height > height + 1)
          out.push(
            `${drawn.style.text} at ${Math.round(r.x)},${Math.round(r.y)} ` +
              `${Math.round(r.width)}×${Math.round(r.height)} in ${width}×${height}`,
          );
      }
    }
    return out;
  });
}

describe("widget visuals on a dashboard", () => {
  const app = useBrowserApp();

  it("draws every chart type's texts inside its widget, on desktop and phone", async () => {
    const board = await createDashboard(app.api, "Widget visuals");
    await addDemoWidgets(app.api, board.id, WIDGETS);
    for (const { name, viewport } of BOTH_VIEWPORTS) {
      const { page, context } = await app.openSignedIn(viewport);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`/dashboards/${board.id}`);
      await waitForWidgetsDrawn(page, WIDGETS.length);
      await poll(() => page.locator("[data-widget-type=visualization] canvas").count()).toBe(
        CANVASES,
      );
      // Charts opening together on a dashboard draw at once, without the entry animation.
      const animated = await page.locator("[_echarts_instance_]").evaluateAll((charts) =>
        charts.map(
          (el) =>
            (
              window as unknown as {
                sightlineECharts: {
                  getInstanceByDom(el: Element): { getOption(): { animation?: unknown } };
                };
              }
            ).sightlineECharts
              .getInstanceByDom(el)
              .getOption().animation,
        ),
      );
      expect(animated).toEqual(Array(CANVASES).fill(false));
      await screenshot(page, `widget-visuals-${name}`);
      // Entry animations move texts into place: wait for them to end where they are drawn.
      await poll(() => textsOutside(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
