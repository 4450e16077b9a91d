// Scheduled reports (issue 28), on a spawned `sightline all` with the Demo data: a 10-widget
// dashboard (5 column charts, 5 counters over 10 small aggregations) sent as a PNG and as a PDF
// report ("Send now", e-mail to a JSON mail transport), next to the same dashboard loaded by a
// signed-in user in headless Chromium. Prints the render time (the worker's figure on the
// status API: print page opened → ready → image), each run's total (queries, paint, delivery),
// the browser load (navigation → every widget painted), and the peak memory of the `sightline
// all` process and of the renderer's browser while the reports are made.
import type { Browser } from "playwright-core";
import { DESKTOP, launchBrowser, signInThroughForm } from "../e2e/browser";
import {
  createDashboardOf,
  createQueryRun,
  createVisualization,
  isMain,
  mb,
  median,
  ms,
  processMemory,
  ratio,
  resetPeak,
  setUpWithDemo,
  sleep,
  spawnSightline,
  tempDir,
  type Figure,
  type TestClient,
} from "./support";

const WIDGETS = 10;
const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS ?? 3);

function querySql(i: number): string {
  const by = i % 2 === 0 ? "status" : "country";
  const table = by === "status" ? "orders" : "orders JOIN customers c ON c.id = customer_id";
  return `SELECT ${by} AS label, count(*) + ${i} AS n FROM ${table} GROUP BY 1 ORDER BY 2 DESC`;
}

async function tenWidgets(client: TestClient, demoId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < WIDGETS; i += 1) {
    const query = await createQueryRun(client, demoId, `Report ${i}`, querySql(i));
    ids.push(
      await createVisualization(
        client,
        query.id,
        i % 2 === 0
          ? {
              type: "CHART",
              name: "Chart",
              options: { globalSeriesType: "column", columnMapping: { label: "x", n: "y" } },
            }
          : { type: "COUNTER", name: "Counter", options: { counterColName: "n", rowNumber: 1 } },
      ),
    );
  }
  return ids;
}

interface RunBody {
  id: number;
  status: string;
  error: string | null;
  duration_ms: number | null;
}
interface Renderer {
  renders: number;
  last_render_ms: number | null;
  peak_browser_memory_bytes: number;
}

async function sendAndWait(client: TestClient, subscriptionId: number): Promise<RunBody> {
  const sent = await client.post<{ run: RunBody }>(`/api/subscriptions/${subscriptionId}/send`);
  if (sent.status !== 202) throw new Error(`send failed: ${sent.text}`);
  for (;;) {
    const run = (await client.get<RunBody>(`/api/report_runs/${sent.body.run.id}`)).body;
    if (run.status === "sent") return run;
    if (run.status !== "queued" && run.status !== "running") {
      throw new Error(`report ${run.status}: ${run.error}`);
    }
    await sleep(50);
  }
}

async function renderer(client: TestClient, renders: number): Promise<Renderer> {
  for (;;) {
    const status = await client.get<{ reports: { workers: Renderer[] } }>(
      "/api/admin/queries/rq_status",
    );
    const worker = status.body.reports.workers[0];
    // The worker publishes its figures just after the run is finished.
    if (worker && worker.renders >= renders) return worker;
    await sleep(50);
  }
}

async function browserLoad(browser: Browser, url: string, dashboardId: number): Promise<number> {
  const context = await browser.newContext({ baseURL: url, viewport: DESKTOP });
  try {
    const login = await context.newPage();
    await signInThroughForm(login);
    await login.close();
    const times: number[] = [];
    for (let round = 0; round <= ROUNDS; round += 1) {
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`/dashboards/${dashboardId}`);
      await page.waitForFunction(
        (expected) => {
          const widgets = document.querySelectorAll("[data-widget-type=visualization]");
          if (widgets.length !== expected) return false;
          for (const el of widgets) {
            if (!el.querySelector("[_echarts_instance_] canvas, [data-testid=counter-value]")) {
              return false;
            }
          }
          return true;
        },
        WIDGETS,
        { timeout: 120_000, polling: 50 },
      );
      // The first load warms the browser's caches, as for a returning user.
      if (round > 0) times.push(Date.now() - started);
      await page.close();
    }
    return median(times);
  } finally {
    await context.close();
  }
}

export async function reportsBenchmark(): Promise<Figure[]> {
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: tempDir("reports"),
    SIGHTLINE_LOG_LEVEL: "warn",
    // Mail counts as configured; with no server it goes to nodemailer's JSON transport.
    SIGHTLINE_MAIL_DEFAULT_SENDER: "reports@bench.example.com",
  });
  let browser: Browser | null = null;
  try {
    const { client, demoId } = await setUpWithDemo(server.url);
    const dashboardId = await createDashboardOf(client, "Ten", await tenWidgets(client, demoId));
    const subscribe = async (format: string) => {
      const res = await client.post<{ id: number }>(
        `/api/dashboards/${dashboardId}/subscriptions`,
        { format, recipients: { emails: ["boss@bench.example.com"] } },
      );
      if (res.status !== 200) throw new Error(`subscribing failed: ${res.text}`);
      return res.body.id;
    };
    const png = await subscribe("png");
    const pdf = await subscribe("pdf");
    // A first report starts the browser and warms its caches.
    await sendAndWait(client, png);
    let renders = 1;
    resetPeak(server.pid);
    const timings = { png: [] as number[], pdf: [] as number[] };
    const totals = { png: [] as number[], pdf: [] as number[] };
    let peakBrowser = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [format, id] of [
        ["png", png],
        ["pdf", pdf],
      ] as const) {
        const run = await sendAndWait(client, id);
        renders += 1;
        const figures = await renderer(client, renders);
        timings[format].push(figures.last_render_ms ?? 0);
        totals[format].push(run.duration_ms ?? 0);
        peakBrowser = Math.max(peakBrowser, figures.peak_browser_memory_bytes);
      }
    }
    const serverPeak = processMemory(server.pid).peak;
    browser = await launchBrowser();
    const load = await browserLoad(browser, server.url, dashboardId);
    const pngMs = median(timings.png);
    const pdfMs = median(timings.pdf);

    console.log(`\n## Scheduled reports, ${WIDGETS}-widget dashboard (median of ${ROUNDS})\n`);
    console.log(`browser load     navigation → every widget painted   ${ms(load)}`);
    console.log(
      `PNG report       render ${ms(pngMs)} (${ratio(pngMs, load)} of the load); whole run ${ms(median(totals.png))}`,
    );
    console.log(
      `PDF report       render ${ms(pdfMs)} (${ratio(pdfMs, load)} of the load); whole run ${ms(median(totals.pdf))}`,
    );
    console.log(
      `peak memory      sightline all ${mb(serverPeak)}; renderer's browser ${mb(peakBrowser)}`,
    );
    return [
      {
        benchmark: "reports",
        measure: `${WIDGETS}-widget report rendered as PNG vs the dashboard loaded in the browser`,
        value: `${ms(pngMs)} vs ${ms(load)} (${ratio(pngMs, load)})`,
        target: "",
        met: null,
      },
      {
        benchmark: "reports",
        measure: `${WIDGETS}-widget report rendered as PDF`,
        value: ms(pdfMs),
        target: "",
        met: null,
      },
      {
        benchmark: "reports",
        measure: "peak memory while rendering: server process / renderer's browser",
        value: `${mb(serverPeak)} / ${mb(peakBrowser)}`,
        target: "",
        met: null,
      },
    ];
  } finally {
    await browser?.close();
    await server.stop();
  }
}

if (isMain(import.meta.url)) await reportsBenchmark();
