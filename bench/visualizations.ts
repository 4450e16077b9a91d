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
import { chromium, type Browser, type Page } from "playwright-core";
import {
  isMain,
  median,
  ms,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
  type TestClient,
} from "./support";

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? "/usr/bin/chromium";
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

const CASES: Case[] = [
  {
    name: "line chart, 100,000 points",
    sql: SERIES_SQL,
    type: "CHART",
    options: {
      globalSeriesType: "line",
      columnMapping: { x: "x", y: "y" },
      legend: { enabled: false },
    },
    drawn: "[_echarts_instance_] canvas",
  },
  {
    name: "scatter, 100,000 points",
    sql: SERIES_SQL,
    type: "CHART",
    options: {
      globalSeriesType: "scatter",
      columnMapping: { x: "x", y: "y" },
      legend: { enabled: false },
    },
    drawn: "[_echarts_instance_] canvas",
  },
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

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

/** Saves the query, runs it once (so the embed page gets the stored result), adds the visualization. */
async function prepare(client: TestClient, demoId: number, c: Case): Promise<string> {
  const query = await client.post<{ id: number }>("/api/queries", {
    name: c.name,
    query: c.sql,
    data_source_id: demoId,
  });
  if (query.status !== 200) throw new Error(`creating the query failed: ${query.text}`);
  const id = query.body.id;
  const run = await client.post<{ job?: { id: string; status: number; error?: string } }>(
    `/api/queries/${id}/results`,
    {},
  );
  let job = run.body.job;
  while (job && job.status !== 3) {
    if (job.status === 4 || job.status === 5) throw new Error(`${c.name}: ${job.error}`);
    await new Promise((r) => setTimeout(r, 100));
    job = (await client.get(`/api/jobs/${job.id}`)).body.job;
  }
  const viz = await client.post<{ id: number }>("/api/visualizations", {
    query_id: id,
    type: c.type,
    name: c.name,
    options: c.options,
  });
  if (viz.status !== 200) throw new Error(`creating the visualization failed: ${viz.text}`);
  return `/embed/query/${id}/visualization/${viz.body.id}`;
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
  const browser = await launch();
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
        const context = await browser.newContext({
          baseURL: server.url,
          viewport: { width: 1280, height: 800 },
        });
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
