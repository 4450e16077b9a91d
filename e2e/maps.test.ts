import { beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { signInThroughForm, useBrowserApp } from "./fixtures/browserApp";
import { CITY_COORDS, demoDataSourceId } from "./fixtures/demo";
import {
  createQueryWithVisualization,
  embedPath,
  type SavedVisualization,
} from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

/**
 * The two maps' saved views (MAP: Leaflet's `{_southWest, _northEast}`; CHOROPLETH:
 * `[[south, west], [north, east]]`), drawn from stored options on the embed page and saved from
 * the editor preview, and the Demo data's countries on the choropleth.
 */

const poll = pollFor(15_000);

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
  width: number;
  height: number;
}

/**
 * The longitude/latitude box the map in `scope` shows. The marker map's geo view is in Web
 * Mercator (read through convertToPixel, as ECharts 5.6's convertFromPixel unprojects in the
 * wrong order); the choropleth's countries are plain longitude/latitude.
 */
async function shownBox(page: Page, scope: string, kind: "markers" | "choropleth"): Promise<Box> {
  return page.evaluate(
    ({ scope, kind }) => {
      type Chart = {
        convertToPixel(finder: object, value: number[]): number[];
        convertFromPixel(finder: object, value: number[]): number[];
        getWidth(): number;
        getHeight(): number;
      };
      const host = (
        window as unknown as {
          sightlineECharts: { getInstanceByDom(el: Element): Chart | undefined };
        }
      ).sightlineECharts;
      const el = document.querySelector(`${scope} [_echarts_instance_]`);
      const chart = el ? host.getInstanceByDom(el) : undefined;
      if (!chart) throw new Error(`no map in ${scope}`);
      const width = chart.getWidth();
      const height = chart.getHeight();
      if (kind === "choropleth") {
        const [west, north] = chart.convertFromPixel({ seriesIndex: 0 }, [0, 0]);
        const [east, south] = chart.convertFromPixel({ seriesIndex: 0 }, [width, height]);
        return { south: south!, west: west!, north: north!, east: east!, width, height };
      }
      const origin = chart.convertToPixel({ geoIndex: 0 }, [0, 0]);
      const side = chart.convertToPixel({ geoIndex: 0 }, [90, 0]);
      const scale = (side[0]! - origin[0]!) / (Math.PI / 2);
      const lon = (px: number) => (((px - origin[0]!) / scale) * 180) / Math.PI;
      const lat = (py: number) =>
        ((2 * Math.atan(Math.exp(-(py - origin[1]!) / scale)) - Math.PI / 2) * 180) / Math.PI;
      return { south: lat(height), west: lon(0), north: lat(0), east: lon(width), width, height };
    },
    { scope, kind },
  );
}

/** The box is all in view, and fills the view across or down (a fitted view, not a guess). */
function expectFitted(
  shown: Box,
  saved: { south: number; west: number; north: number; east: number },
) {
  const eps = 1e-3;
  expect(shown.west).toBeLessThanOrEqual(saved.west + eps);
  expect(shown.east).toBeGreaterThanOrEqual(saved.east - eps);
  expect(shown.south).toBeLessThanOrEqual(saved.south + eps);
  expect(shown.north).toBeGreaterThanOrEqual(saved.north - eps);
  const across = Math.abs(shown.west - saved.west) + Math.abs(shown.east - saved.east);
  const down = Math.abs(shown.south - saved.south) + Math.abs(shown.north - saved.north);
  expect(Math.min(across, down)).toBeLessThan(0.05);
}

const BY_COUNTRY = "SELECT country, count(*) AS customers FROM customers GROUP BY 1 ORDER BY 1";

const CHOROPLETH = {
  mapType: "countries",
  keyColumn: "country",
  targetField: "name",
  valueColumn: "customers",
  valueFormat: "0,0",
};

describe("map views and the Demo countries", () => {
  const app = useBrowserApp();
  let demoId: number;

  beforeAll(async () => {
    demoId = await demoDataSourceId(app.api);
  }, 120_000);

  /** Saves and runs a query on the Demo data and adds a visualization with stored options. */
  function visualization(
    sql: string,
    type: string,
    name: string,
    options: Record<string, unknown>,
  ): Promise<SavedVisualization> {
    return createQueryWithVisualization(app.api, demoId, { sql, name }, { type, options });
  }

  async function storedOptions(queryId: number, visualizationId: number) {
    const query = (await app.api.get(`/api/queries/${queryId}`)).body as {
      visualizations: { id: number; options: Record<string, unknown> }[];
    };
    return query.visualizations.find((v) => v.id === visualizationId)!.options;
  }

  /** The embed page of a visualization, as an embedding site opens it (the query's API key). */
  async function embed(
    v: SavedVisualization,
    viewport = DESKTOP,
  ): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const { page, context } = await app.open(viewport);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(embedPath(v));
    await mapDrawn(page, "body");
    return { page, context, errors };
  }

  async function mapDrawn(page: Page, scope: string): Promise<void> {
    await page
      .waitForSelector(`${scope} [_echarts_instance_] canvas`, { timeout: 20_000 })
      .catch(async (e: Error) => {
        await screenshot(page, "maps-failed");
        throw new Error(`${e.message}\n${await page.textContent("body")}`);
      });
    // The first frame, and the redraw once the drawing area's size is known.
    await page.waitForTimeout(800);
  }

  /** Signed in, on the query page, with the visualization's editor open. */
  async function openEditor(queryId: number, visualizationId: number) {
    const { page, context } = await app.open(DESKTOP);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signInThroughForm(page);
    await page.goto(`/queries/${queryId}/source#${visualizationId}`);
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("Rows");
    await page.click("button:has-text('Edit Visualization')");
    await page.waitForSelector(".ant-modal [data-testid=save-visualization]");
    await animationsSettled(page);
    await mapDrawn(page, ".ant-modal");
    return { page, context, errors };
  }

  /** Drags the map in `scope` by (dx, dy) pixels from its middle. */
  async function drag(page: Page, scope: string, dx: number, dy: number): Promise<void> {
    const box = (await page.locator(`${scope} [_echarts_instance_]`).boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y + dy, { steps: 12 });
    await page.mouse.up();
  }

  /** The zoom of the map in `scope`: the geo component's (markers) or the map series'. */
  async function mapZoom(page: Page, scope: string, kind: "markers" | "choropleth") {
    return page.evaluate(
      ({ scope, kind }) => {
        type Opt = { geo?: { zoom?: number }[]; series?: { zoom?: number }[] };
        const host = (
          window as unknown as {
            sightlineECharts: { getInstanceByDom(el: Element): { getOption(): Opt } | undefined };
          }
        ).sightlineECharts;
        const el = document.querySelector(`${scope} [_echarts_instance_]`);
        const option = el ? host.getInstanceByDom(el)?.getOption() : undefined;
        if (!option) throw new Error(`no map in ${scope}`);
        return (kind === "markers" ? option.geo?.[0]?.zoom : option.series?.[0]?.zoom) ?? 1;
      },
      { scope, kind },
    );
  }

  /** Turns the wheel over the middle of the map in `scope`. */
  async function wheel(page: Page, scope: string, deltaY: number): Promise<void> {
    const box = (await page.locator(`${scope} [_echarts_instance_]`).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, deltaY);
    await page.waitForTimeout(300);
  }

  it(
    "CHOROPLETH: saved bounds are the view; unset, the whole world",
    { timeout: 90_000 },
    async () => {
      const saved = { south: 34, west: -12, north: 62, east: 33 };
      const v = await visualization(BY_COUNTRY, "CHOROPLETH", "Europe by customers", {
        ...CHOROPLETH,
        bounds: [
          [saved.south, saved.west],
          [saved.north, saved.east],
        ],
      });
      const { page, context, errors } = await embed(v);
      expectFitted(await shownBox(page, "body", "choropleth"), saved);
      await screenshot(page, "maps-choropleth-bounds");
      expect(errors).toEqual([]);
      await context.close();

      // On a phone the same view, fitted across.
      const phone = await embed(v, PHONE);
      expectFitted(await shownBox(phone.page, "body", "choropleth"), saved);
      await screenshot(phone.page, "maps-choropleth-bounds-phone");
      expect(phone.errors).toEqual([]);
      await phone.context.close();

      const whole = await embed(
        await visualization(BY_COUNTRY, "CHOROPLETH", "World by customers", CHOROPLETH),
      );
      const world = await shownBox(whole.page, "body", "choropleth");
      expect(world.west).toBeLessThan(-170);
      expect(world.east).toBeGreaterThan(170);
      expect(whole.errors).toEqual([]);
      await whole.context.close();
    },
  );

  it(
    "CHOROPLETH of the Demo data: the United States is coloured like the other countries",
    { timeout: 60_000 },
    async () => {
      const v = await visualization(BY_COUNTRY, "CHOROPLETH", "Customers by country", CHOROPLETH);
      const { page, context, errors } = await embed(v);
      const regions = await page.evaluate(() => {
        type Opt = {
          series: { data: { name: string; value?: number; itemStyle: { areaColor: string } }[] }[];
        };
        const host = (
          window as unknown as {
            sightlineECharts: { getInstanceByDom(el: Element): { getOption(): Opt } };
          }
        ).sightlineECharts;
        const chart = host.getInstanceByDom(document.querySelector("[_echarts_instance_]")!);
        return chart.getOption().series[0]!.data;
      });
      const us = regions.find((r) => r.name === "United States of America")!;
      expect(us.value).toBeGreaterThan(0);
      expect(us.itemStyle.areaColor).not.toBe("#dddddd");
      // Every Demo country finds its region: 15 countries, 15 coloured regions.
      expect(regions.filter((r) => typeof r.value === "number")).toHaveLength(15);
      await screenshot(page, "maps-choropleth-demo");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "CHOROPLETH editor: the Bounds tab shows and edits the saved corners, and panning the preview saves them",
    { timeout: 120_000 },
    async () => {
      const v = await visualization(BY_COUNTRY, "CHOROPLETH", "Bounds in the editor", {
        ...CHOROPLETH,
        bounds: [
          [34, -12],
          [62, 33],
        ],
      });
      const { page, context, errors } = await openEditor(v.queryId, v.visualizationId);
      await page.click(".ant-modal .ant-tabs-tab:has-text('Bounds')");
      const field = (label: string) => page.locator(`.ant-modal input[aria-label='${label}']`);
      await poll(() => field("North-East latitude").inputValue()).toBe("62");
      expect(await field("North-East longitude").inputValue()).toBe("33");
      expect(await field("South-West latitude").inputValue()).toBe("34");
      expect(await field("South-West longitude").inputValue()).toBe("-12");
      await screenshot(page, "maps-choropleth-bounds-tab");

      // A typed corner moves the preview.
      await field("South-West latitude").fill("20");
      await poll(
        async () => (await shownBox(page, ".ant-modal", "choropleth")).south,
        10_000,
      ).toBeLessThan(20.01);
      expectFitted(await shownBox(page, ".ant-modal", "choropleth"), {
        south: 20,
        west: -12,
        north: 62,
        east: 33,
      });

      // Panning the preview saves the view it shows, and the fields follow.
      await drag(page, ".ant-modal", -120, 0);
      await poll(() => field("South-West longitude").inputValue()).not.toBe("-12");
      const panned = await shownBox(page, ".ant-modal", "choropleth");
      expect(panned.west).toBeGreaterThan(-12);
      await page.click("[data-testid=save-visualization]");
      await poll(() => page.textContent("body")).toContain("Visualization saved");
      const bounds = (await storedOptions(v.queryId, v.visualizationId)).bounds as number[][];
      expect(bounds).toHaveLength(2);
      expect(bounds[0]![0]).toBeCloseTo(panned.south, 3);
      expect(bounds[0]![1]).toBeCloseTo(panned.west, 3);
      expect(bounds[1]![0]).toBeCloseTo(panned.north, 3);
      expect(bounds[1]![1]).toBeCloseTo(panned.east, 3);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("MAP: saved bounds are the view", { timeout: 60_000 }, async () => {
    const saved = { south: 34, west: -12, north: 61, east: 25 };
    const v = await visualization(CITY_COORDS, "MAP", "Europe", {
      latColName: "lat",
      lonColName: "lon",
      bounds: {
        _southWest: { lat: saved.south, lng: saved.west },
        _northEast: { lat: saved.north, lng: saved.east },
      },
    });
    const { page, context, errors } = await embed(v);
    expectFitted(await shownBox(page, "body", "markers"), saved);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "MAP editor: moving the preview saves its view as Leaflet bounds, and the map opens on it",
    { timeout: 120_000 },
    async () => {
      const v = await visualization(CITY_COORDS, "MAP", "Moved in the editor", {
        latColName: "lat",
        lonColName: "lon",
        bounds: null,
      });
      const { page, context, errors } = await openEditor(v.queryId, v.visualizationId);
      const before = await shownBox(page, ".ant-modal", "markers");
      // Every marker is in the first view (null bounds fit them all).
      expect(before.west).toBeLessThan(-123.12);
      expect(before.east).toBeGreaterThan(151.21);
      await drag(page, ".ant-modal", -150, 60);
      await page.waitForTimeout(800); // the preview saves once the map stands still
      const moved = await shownBox(page, ".ant-modal", "markers");
      expect(moved.west).toBeGreaterThan(before.west + 1);
      await screenshot(page, "maps-marker-editor");
      await page.click("[data-testid=save-visualization]");
      await poll(() => page.textContent("body")).toContain("Visualization saved");
      const bounds = (await storedOptions(v.queryId, v.visualizationId)).bounds as {
        _southWest: { lat: number; lng: number };
        _northEast: { lat: number; lng: number };
      };
      expect(Object.keys(bounds)).toEqual(["_southWest", "_northEast"]);
      expect(bounds._southWest.lat).toBeCloseTo(moved.south, 3);
      expect(bounds._southWest.lng).toBeCloseTo(moved.west, 3);
      expect(bounds._northEast.lat).toBeCloseTo(moved.north, 3);
      expect(bounds._northEast.lng).toBeCloseTo(moved.east, 3);
      expect(errors).toEqual([]);
      await context.close();

      // The saved view is where the map opens.
      const opened = await embed(v);
      const box = {
        south: bounds._southWest.lat,
        west: bounds._southWest.lng,
        north: bounds._northEast.lat,
        east: bounds._northEast.lng,
      };
      expectFitted(await shownBox(opened.page, "body", "markers"), box);
      await screenshot(opened.page, "maps-marker-saved-view");
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    },
  );

  for (const kind of ["markers", "choropleth"] as const) {
    const label = kind === "markers" ? "MAP" : "CHOROPLETH";
    const create = () =>
      kind === "markers"
        ? visualization(CITY_COORDS, "MAP", "Wheel and buttons", {
            latColName: "lat",
            lonColName: "lon",
            bounds: null,
          })
        : visualization(BY_COUNTRY, "CHOROPLETH", "Wheel and buttons", CHOROPLETH);

    it(
      `${label}: the wheel scrolls the page, not the map; the zoom buttons zoom by 2`,
      { timeout: 90_000 },
      async () => {
        const v = await create();
        const { page, context, errors } = await embed(v);
        const zoom = () => mapZoom(page, "body", kind);
        const start = await zoom();
        const before = await shownBox(page, "body", kind);

        // Up, which zoomed in.
        await wheel(page, "body", -400);
        expect(await zoom()).toBe(start);

        // On a page taller than the window, the wheel over the map scrolls the page.
        await page.evaluate(() => {
          const spacer = document.createElement("div");
          spacer.id = "spacer";
          spacer.style.height = "2000px";
          document.body.append(spacer);
        });
        await wheel(page, "body", 300);
        await poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        expect(await zoom()).toBe(start);
        await page.evaluate(() => {
          window.scrollTo(0, 0);
          document.getElementById("spacer")!.remove();
        });

        await page.getByRole("button", { name: "Zoom in" }).click();
        await poll(zoom).toBeCloseTo(start * 2, 6);
        // Drawn so: half as much of the world across, around the same middle.
        const zoomed = await shownBox(page, "body", kind);
        const span = (b: Box) => b.east - b.west;
        expect(span(zoomed) / span(before)).toBeCloseTo(0.5, 2);
        expect((zoomed.west + zoomed.east) / 2).toBeCloseTo((before.west + before.east) / 2, 1);
        await page.waitForTimeout(500); // the markers' clusters follow the zoom
        await screenshot(page, `maps-${kind}-zoomed-in`);

        await page.getByRole("button", { name: "Zoom out" }).click();
        await poll(zoom).toBeCloseTo(start, 6);
        await page.getByRole("button", { name: "Zoom out" }).click();
        await poll(zoom).toBeCloseTo(start / 2, 6);
        expect(errors).toEqual([]);
        await context.close();

        const phone = await embed(v, PHONE);
        const phoneStart = await mapZoom(phone.page, "body", kind);
        await phone.page.getByRole("button", { name: "Zoom in" }).click();
        await poll(() => mapZoom(phone.page, "body", kind)).toBeCloseTo(phoneStart * 2, 6);
        await phone.page.waitForTimeout(500);
        await screenshot(phone.page, `maps-${kind}-controls-phone`);
        expect(phone.errors).toEqual([]);
        await phone.context.close();
      },
    );

    it(
      `${label}: "Full screen" shows the map's container full screen, resized, until "Exit full screen"`,
      { timeout: 90_000 },
      async () => {
        const { page, context, errors } = await embed(await create());
        const chartSize = () =>
          page.evaluate(() => {
            const el = document.querySelector("[_echarts_instance_]")!;
            const host = (
              window as unknown as {
                sightlineECharts: {
                  getInstanceByDom(el: Element): { getWidth(): number; getHeight(): number };
                };
              }
            ).sightlineECharts;
            const chart = host.getInstanceByDom(el);
            return { width: chart.getWidth(), height: chart.getHeight() };
          });
        // The element around the drawing area (with the notices and attribution), or null.
        const fullscreenIsMap = () =>
          page.evaluate(() => {
            const area = document.querySelector("[_echarts_instance_]")!.parentElement!;
            const shown = document.fullscreenElement;
            return shown === null ? null : shown === area.parentElement;
          });
        const small = await chartSize();
        expect(await fullscreenIsMap()).toBeNull();

        await page.getByRole("button", { name: "Full screen" }).click();
        await poll(fullscreenIsMap).toBe(true);
        const viewport = page.viewportSize()!;
        await poll(chartSize).toEqual(expect.objectContaining({ width: viewport.width }));
        expect((await chartSize()).height).toBeGreaterThan(viewport.height - 100);
        await page.waitForTimeout(800); // the view is fitted again to the new size
        await screenshot(page, `maps-${kind}-full-screen`);

        await page.getByRole("button", { name: "Exit full screen" }).click();
        await poll(fullscreenIsMap).toBeNull();
        await poll(chartSize).toEqual(small);
        await page.getByRole("button", { name: "Full screen" }).waitFor();
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }

  it(
    "MAP editor: zooming the preview with a button saves its view, as moving it does",
    { timeout: 120_000 },
    async () => {
      const v = await visualization(CITY_COORDS, "MAP", "Zoomed in the editor", {
        latColName: "lat",
        lonColName: "lon",
        bounds: null,
      });
      const { page, context, errors } = await openEditor(v.queryId, v.visualizationId);
      const before = await shownBox(page, ".ant-modal", "markers");
      await page.locator(".ant-modal").getByRole("button", { name: "Zoom in" }).click();
      await page.waitForTimeout(800); // the preview saves once the map stands still
      const zoomed = await shownBox(page, ".ant-modal", "markers");
      expect((zoomed.east - zoomed.west) / (before.east - before.west)).toBeCloseTo(0.5, 2);
      await screenshot(page, "maps-marker-editor-zoomed");
      await page.click("[data-testid=save-visualization]");
      await poll(() => page.textContent("body")).toContain("Visualization saved");
      const bounds = (await storedOptions(v.queryId, v.visualizationId)).bounds as {
        _southWest: { lat: number; lng: number };
        _northEast: { lat: number; lng: number };
      };
      expect(bounds._southWest.lat).toBeCloseTo(zoomed.south, 3);
      expect(bounds._southWest.lng).toBeCloseTo(zoomed.west, 3);
      expect(bounds._northEast.lat).toBeCloseTo(zoomed.north, 3);
      expect(bounds._northEast.lng).toBeCloseTo(zoomed.east, 3);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
