// Bytes on the wire, and the time to fetch them over loopback, for a cold load of a query page
// with a chart (its HTML and every script, style sheet and image the browser asked for) and for a
// 100,000-row result as the web app reads it, through a spawned `sightline all`: without
// Accept-Encoding (every byte as stored, as before compression) and with gzip (what a browser
// asks for over http) and brotli (over https).
//
// Headless Chromium opens the page once to list the files it loads; each encoding then fetches
// that list cold (no cache, 6 connections like a browser). Loopback hides the network, so the
// time a 20 Mbit/s link would need for the same bytes is printed beside it.
//
// Needs the built web app (npm run build) and Debian's Chromium (SIGHTLINE_CHROMIUM).
import fs from "node:fs";
import { CHROMIUM, launchBrowser } from "../e2e/browser";
import { decodedBody, rawGet, type RawResponse } from "../packages/server/src/testing/rawHttp";
import {
  createDataSource,
  createQueryRun,
  createVisualization,
  executeQuery,
  isMain,
  median,
  ms,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
  type TestClient,
} from "./support";

const RUNS = Number(process.env.BENCH_TRANSFER_RUNS ?? 5);
const CONNECTIONS = 6;
const LINK_BITS_PER_SECOND = 20e6;

const CHART_SQL = "SELECT range AS x, sin(range / 10.0) AS y FROM range(200)";
const BIG_SQL = `SELECT range AS id, 'customer ' || range AS name, round(range * 1.37, 2) AS amount,
  range % 97 AS quantity, TIMESTAMP '2024-01-01' + to_seconds(range) AS created_at,
  range % 3 = 0 AS active FROM range(100000)`;

const ENCODINGS = [
  { name: "none (as before)", header: undefined },
  { name: "gzip", header: "gzip, deflate" },
  { name: "gzip, br", header: "gzip, deflate, br" },
] as const;

interface Transfer {
  bytes: number;
  /** The Content-Encodings the server answered with, and how many files each. */
  sentAs: string;
  /** Median wall time of the cold fetches, ms. */
  time: number;
}

function cookieOf(client: TestClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

function linkTime(bytes: number): string {
  return ms((bytes * 8 * 1000) / LINK_BITS_PER_SECOND);
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MB`
    : `${(bytes / 1024).toFixed(0)} kB`;
}

/** A saved query with a chart, run once; returns the page that shows the chart. */
async function chartPage(client: TestClient, dataSourceId: number): Promise<string> {
  const query = await createQueryRun(client, dataSourceId, "Transfer benchmark chart", CHART_SQL);
  const chart = await createVisualization(client, query.id, {
    type: "CHART",
    name: "Chart",
    options: { globalSeriesType: "line", columnMapping: { x: "x", y: "y" } },
  });
  return `/queries/${query.id}#${chart}`;
}

/** Opens the page in Chromium until the chart is drawn; returns the same-origin files it loaded. */
async function filesOfPage(baseUrl: string, page: string, client: TestClient): Promise<string[]> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    await context.addCookies(
      [...client.cookies].map(([name, value]) => ({ name, value, url: baseUrl })),
    );
    const tab = await context.newPage();
    const files = new Set<string>();
    tab.on("request", (request) => {
      const url = new URL(request.url());
      const kind = request.resourceType();
      if (
        url.origin === baseUrl &&
        ["document", "script", "stylesheet", "image", "font"].includes(kind)
      ) {
        files.add(url.pathname);
      }
    });
    await tab.goto(page);
    await tab.waitForSelector("[_echarts_instance_] canvas", {
      state: "attached",
      timeout: 120_000,
    });
    await tab.waitForLoadState("networkidle");
    return [...files];
  } finally {
    await browser.close();
  }
}

/** Fetches every path cold, CONNECTIONS at a time; checks that each decodes to the plain bytes. */
async function fetchAll(
  baseUrl: string,
  paths: string[],
  headers: Record<string, string>,
  plain?: Map<string, Buffer>,
): Promise<{ bytes: number; time: number; bodies: Map<string, Buffer>; sentAs: string }> {
  const queue = [...paths];
  const bodies = new Map<string, Buffer>();
  const encodings = new Map<string, number>();
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const res: RawResponse = await rawGet(baseUrl + path, headers);
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        bytes += res.body.length;
        const sent = String(res.headers["content-encoding"] ?? "none");
        encodings.set(sent, (encodings.get(sent) ?? 0) + 1);
        const body = decodedBody(res);
        if (plain && !plain.get(path)!.equals(body)) throw new Error(`${path} decodes differently`);
        bodies.set(path, body);
      }
    }),
  );
  const sentAs = [...encodings].map(([name, n]) => (paths.length > 1 ? `${name} (${n})` : name));
  return { bytes, time: performance.now() - started, bodies, sentAs: sentAs.join(", ") };
}

/**
 * Each encoding's bytes and median time over RUNS cold fetches of the same paths; the encodings
 * take turns within each run, so a busy moment of the machine weighs on all of them alike.
 */
async function measure(
  baseUrl: string,
  paths: string[],
  cookie: string,
): Promise<Map<string, Transfer>> {
  const plain = (await fetchAll(baseUrl, paths, { cookie })).bodies;
  const runs = new Map<string, Awaited<ReturnType<typeof fetchAll>>[]>(
    ENCODINGS.map((e) => [e.name, []]),
  );
  for (let i = 0; i < RUNS; i++) {
    for (const encoding of ENCODINGS) {
      const headers: Record<string, string> = { cookie };
      if (encoding.header) headers["accept-encoding"] = encoding.header;
      runs.get(encoding.name)!.push(await fetchAll(baseUrl, paths, headers, plain));
    }
  }
  const results = new Map<string, Transfer>();
  for (const [name, list] of runs) {
    results.set(name, {
      bytes: list[0]!.bytes,
      sentAs: list[0]!.sentAs,
      time: median(list.map((r) => r.time)),
    });
  }
  return results;
}

function report(title: string, results: Map<string, Transfer>, figures: Figure[]): void {
  console.log(`\n### ${title}\n`);
  console.log("| Accept-Encoding | Sent as | Bytes | Loopback time (median) | At 20 Mbit/s |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, t] of results) {
    console.log(
      `| ${name} | ${t.sentAs} | ${kb(t.bytes)} | ${ms(t.time)} | ${linkTime(t.bytes)} |`,
    );
  }
  const before = results.get(ENCODINGS[0].name)!;
  for (const encoding of ENCODINGS.slice(1)) {
    const after = results.get(encoding.name)!;
    figures.push({
      benchmark: "transfer",
      measure: `${title}: ${encoding.name} vs none`,
      value:
        `${kb(after.bytes)} vs ${kb(before.bytes)} (${(before.bytes / after.bytes).toFixed(1)}× less); ` +
        `loopback ${ms(after.time)} vs ${ms(before.time)}; at 20 Mbit/s ${linkTime(after.bytes)} vs ${linkTime(before.bytes)}`,
      target: "compressed",
      met: after.bytes < before.bytes,
    });
  }
}

export async function transferBenchmark(): Promise<Figure[]> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`transfer: skipped, no Chromium at ${CHROMIUM}`);
    return [];
  }
  const dataDir = tempDir("transfer");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  const figures: Figure[] = [];
  try {
    const { client } = await setUpWithDemo(server.url);
    const cookie = cookieOf(client);
    const duckdb = await createDataSource(client, "DuckDB", "duckdb", { dbpath: ":memory:" });
    console.log("\n## Transfer: bytes on the wire, without and with compression\n");

    const page = await chartPage(client, duckdb);
    const files = await filesOfPage(server.url, page, client);
    const pageResults = await measure(server.url, files, cookie);
    report(`cold query page with a chart (${files.length} files)`, pageResults, figures);

    const resultId = await executeQuery(client, duckdb, BIG_SQL);
    const resultResults = await measure(server.url, [`/api/query_results/${resultId}`], cookie);
    report("100,000-row result (GET /api/query_results/<id>)", resultResults, figures);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

if (isMain(import.meta.url)) await transferBenchmark();
