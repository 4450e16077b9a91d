// Rendering large results in headless Chromium through the embed page of a spawned
// `sightline all`: first paint of a 100,000-point line chart and scatter, a 10,000-cell pivot and
// a 100,000-row table, and a scroll to the end of that table.
//
// Times come from the page itself: the renderer sets the performance mark
// "sightline:visualization-rendered" on the animation frame after its first frame with data
// (for ECharts, after its first "rendered" event with the new option). Two figures each: from
// navigation start, and from the arrival of the result (responseEnd of the POST
// /api/queries/<id>/results).
import fs from "node:fs";
import type { Page } from "playwright-core";
import { DESKTOP, launchBrowser } from "../e2e/browser";
import {
  createQueryRun,
  createVisualization,
  isMain,
  median,
  ms,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
  type TestClient,
} from "./support";

const RUNS = Number(process.env.BENCH_VIZ_RUNS ?? 3);
const POINTS = 100_000;
const MARK = "sightline:visualization-rendered";

const SERIES_SQL = `SELECT range AS x, sin(range/100.0) AS y FROM range(${POINTS})`;
const TABLE_SQL = `SELECT range AS id, 'row ' || range AS name, sin(range/100.0) AS y,
  TIMESTAMP '2024-01-01' + to_seconds(range) AS created_at FROM range(${POINTS})`;
// 100 row keys × 100 column keys = 10,000 cells.
const PIVOT_SQL =
  "SELECT range % 100 AS r, (range // 100) % 100 AS c, range AS v FROM range(10000)";

interface Case {
  name: string;
  sql: string;
  type: string;
  options: Record<string, unknown>;
  /** What must be on the page once drawn. */
  drawn: string;
}

/** A 100,000-point chart of the series, with the given series type. */
function seriesCase(seriesType: "line" | "scatter"): Case {
  return {
    name: `${seriesType === "line" ? "line chart" : "scatter"}, 100,000 points`,
    sql: SERIES_SQL,
    type: "CHART",
    options: {
      globalSeriesType: seriesType,
      columnMapping: { x: "x", y: "y" },
      legend: { enabled: false },
    },
    drawn: "[_echarts_instance_] canvas",
  };
}

const CASES: Case[] = [
  seriesCase("line"),
  seriesCase("scatter"),
  {
    name: "pivot, 10,000 cells",
    sql: PIVOT_SQL,
    type: "PIVOT",
    options: {
      rows: ["r"],
      cols: ["c"],
      vals: ["v"],
      aggregatorName: "Sum",
      rendererName: "Table",
      controls: { enabled: true },
    },
    drawn: "[data-testid=pivot-table] td",
  },
  {
    name: "table, 100,000 rows",
    sql: TABLE_SQL,
    type: "TABLE",
    options: {},
    drawn: "[data-testid=table-visualization] [role=cell]",
  },
];

/** Saves the query, runs it once (so the embed page gets the stored result), adds the visualization. */
async function prepare(client: TestClient, demoId: number, c: Case): Promise<string> {
  const query = await createQueryRun(client, demoId, c.name, c.sql);
  const viz = await createVisualization(client, query.id, {
    type: c.type,
    name: c.name,
    options: c.options,
  });
  return `/embed/query/${query.id}/visualization/${viz}`;
}

interface Timing {
  fromNavigation: number;
  fromResult: number;
}

/** Opens the embed page and reads the render mark and the result's arrival from the page. */
async function measure(page: Page, url: string, c: Case): Promise<Timing> {
  await page.goto(url);
  await page.waitForSelector(c.drawn, { state: "attached", timeout: 120_000 });
  await page.waitForFunction((m) => performance.getEntriesByName(m).length > 0, MARK, {
    timeout: 120_000,
  });
  return page.evaluate((m) => {
    const rendered = performance.getEntriesByName(m)[0]!.startTime;
    const result = performance
      .getEntriesByType("resource")
      .filter((e) => /\/api\/queries\/\d+\/results/.test(e.name))
      .map((e) => (e as PerformanceResourceTiming).responseEnd)[0];
    return { fromNavigation: rendered, fromResult: rendered - (result ?? 0) };
  }, MARK);
}

/** Scrolls the table to its last row and times until that row is painted. */
async function scrollToEnd(
  page: Page,
): Promise<{ time: number; lastIndex: number; rowsInDom: number }> {
  return page.evaluate(async (rows) => {
    const table = document.querySelector("[data-testid=table-visualization]")!;
    const scroller = [...table.querySelectorAll<HTMLElement>("div")].find(
      (d) => getComputedStyle(d).overflow === "auto" || getComputedStyle(d).overflowY === "auto",
    )!;
    // No named inner functions here: tsx would wrap them in a helper the page does not have.
    const selector = `[role=row][data-index='${rows - 1}']`;
    const start = performance.now();
    scroller.scrollTop = scroller.scrollHeight;
    while (!table.querySelector(selector)) await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestAnimationFrame(r));
    return {
      time: performance.now() - start,
      lastIndex: Number(table.querySelector(selector)!.getAttribute("data-index")),
      rowsInDom: table.querySelectorAll("[role=row][data-index]").length,
    };
  }, POINTS);
}

export async function visualizationsBenchmark(): Promise<Figure[]> {
  const dataDir = tempDir("viz");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  const browser = await launchBrowser();
  const figures: Figure[] = [];
  try {
    const { client, demoId } = await setUpWithDemo(server.url);
    // The embed page is opened with the admin's API key (a query's own key is not accepted for
    // the page itself yet).
    const me = (await client.get<{ user: { id: number } }>("/api/session")).body.user;
    const apiKey = (await client.get<{ api_key: string }>(`/api/users/${me.id}`)).body.api_key;
    console.log(`\n## Visualizations in headless Chromium (1280×800), median of ${RUNS} runs\n`);
    console.log("| Visualization | navigation → painted | result arrived → painted |");
    console.log("| --- | --- | --- |");
    for (const c of CASES) {
      const url = `${await prepare(client, demoId, c)}?api_key=${apiKey}`;
      const runs: Timing[] = [];
      const scrolls: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP });
        const page = await context.newPage();
        runs.push(await measure(page, url, c));
        if (c.type === "TABLE") {
          const scroll = await scrollToEnd(page);
          if (scroll.lastIndex !== POINTS - 1) throw new Error("the last row was not reached");
          if (i === 0)
            console.error(`(table rows in the DOM after the scroll: ${scroll.rowsInDom})`);
          scrolls.push(scroll.time);
        }
        await context.close();
      }
      const nav = median(runs.map((r) => r.fromNavigation));
      const res = median(runs.map((r) => r.fromResult));
      console.log(`| ${c.name} | ${ms(nav)} | ${ms(res)} |`);
      figures.push({
        benchmark: "visualizations",
        measure: `${c.name}: result → first paint`,
        value: `${ms(res)} (navigation → paint ${ms(nav)})`,
        target: "",
        met: null,
      });
      if (scrolls.length) {
        const s = median(scrolls);
        console.log(`| table, scroll to row 100,000 | ${ms(s)} | |`);
        figures.push({
          benchmark: "visualizations",
          measure: "table: scroll to the last of 100,000 rows",
          value: ms(s),
          target: "",
          met: null,
        });
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

if (isMain(import.meta.url)) await visualizationsBenchmark();
