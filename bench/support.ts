// Shared helpers of the benchmarks: spawning real Sightline processes, measuring them, and
// driving the HTTP API the way the web app does.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";

export {
  TestClient,
  createDataSource,
  setUpAndLogin,
} from "../packages/server/src/testing/httpClient";

export const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "packages/server/bin/sightline.js");

export const PG_URL =
  process.env.SIGHTLINE_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.SIGHTLINE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sightline-bench-${prefix}-`));
}

export function randomSuffix(): string {
  return `${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Memory {
  /** Peak resident set size since start or the last resetPeak(), bytes. */
  peak: number;
  /** Current resident set size, bytes. */
  rss: number;
}

/** VmHWM and VmRSS of a process, from /proc (Linux). */
export function processMemory(pid: number): Memory {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { peak: kb("VmHWM") * 1024, rss: kb("VmRSS") * 1024 };
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs), so a phase's own peak can be read. */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

export interface SightlineProcess {
  pid: number;
  /** Base URL, for the HTTP commands. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `sightline <command>` as a child process with the given environment, and waits until it
 * answers /ping (server, all) or logs that it started (worker).
 */
export async function spawnSightline(
  command: "all" | "server" | "worker",
  env: Record<string, string>,
  /** Extra node flags, e.g. ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] to profile the process. */
  nodeArgs: string[] = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
): Promise<SightlineProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, BIN, command], {
    cwd: ROOT,
    env: {
      ...process.env,
      SIGHTLINE_PORT: String(port),
      SIGHTLINE_HOST: "127.0.0.1",
      SIGHTLINE_LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (data: Buffer) => {
    log = (log + data.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`sightline ${command} exited early:\n${log}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`sightline ${command} did not start in time:\n${log}`);
    }
    if (command === "worker") {
      if (log.includes("worker started")) break;
    } else {
      const ok = await fetch(`${url}/ping`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
    }
    await sleep(100);
  }
  return {
    pid: child.pid!,
    url,
    output: () => log,
    async stop() {
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A fresh secret key for a spawned process (required in scaled mode). */
export function secretKey(): string {
  return crypto.randomBytes(32).toString("hex");
}

/** First-run setup, then waits until the Demo data source is generated (unpaused). */
export async function setUpWithDemo(url: string): Promise<{ client: TestClient; demoId: number }> {
  const client = await setUpAndLogin(url);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list =
      await client.get<{ id: number; name: string; paused: number | boolean }[]>(
        "/api/data_sources",
      );
    const demo = Array.isArray(list.body) ? list.body.find((d) => d.name === "Demo") : undefined;
    if (demo && !demo.paused) return { client, demoId: demo.id };
    if (Date.now() > deadline) throw new Error("the Demo data source was not ready in time");
    await sleep(250);
  }
}

interface JobBody {
  job?: { id: string; status: number; error: string; query_result_id: number | null };
  query_result?: { id: number };
  message?: string;
}

/**
 * POST /api/query_results with max_age 0, then polls the job (if the answer is one) until it
 * finishes. Returns the result id, or throws with the job's error message.
 */
export async function executeQuery(
  client: TestClient,
  dataSourceId: number,
  query: string,
  pollMs = 20,
): Promise<number> {
  const res = await client.post<JobBody>("/api/query_results", {
    data_source_id: dataSourceId,
    query,
    max_age: 0,
  });
  if (res.body.query_result) return res.body.query_result.id;
  if (!res.body.job) throw new Error(`unexpected answer ${res.status}: ${res.text.slice(0, 300)}`);
  let job: NonNullable<JobBody["job"]> = res.body.job;
  for (;;) {
    if (job.status === 3 && job.query_result_id !== null) return job.query_result_id;
    if (job.status === 4 || job.status === 5) throw new Error(job.error);
    await sleep(pollMs);
    const poll: { status: number; text: string; body: JobBody } = await client.get<JobBody>(
      `/api/jobs/${job.id}`,
    );
    if (!poll.body.job) throw new Error(`polling failed ${poll.status}: ${poll.text}`);
    job = poll.body.job;
  }
}

export interface SavedQuery {
  id: number;
  /** The visualizations saving made: the default table. */
  visualizations: { id: number }[];
}

/** Saves a query on the data source and runs it to the end, so that pages find its result. */
export async function createQueryRun(
  client: TestClient,
  dataSourceId: number,
  name: string,
  sql: string,
): Promise<SavedQuery> {
  const query = await client.post<SavedQuery>("/api/queries", {
    name,
    query: sql,
    data_source_id: dataSourceId,
  });
  if (query.status !== 200) throw new Error(`creating the query failed: ${query.text}`);
  const run = await client.post<JobBody>(`/api/queries/${query.body.id}/results`, { max_age: 0 });
  let job = run.body.job;
  while (job && job.status !== 3) {
    if (job.status === 4 || job.status === 5) throw new Error(`${name}: ${job.error}`);
    await sleep(50);
    job = (await client.get<JobBody>(`/api/jobs/${job.id}`)).body.job;
  }
  return query.body;
}

/** Adds a visualization to a saved query: its id. */
export async function createVisualization(
  client: TestClient,
  queryId: number,
  visualization: { type: string; name: string; options: Record<string, unknown> },
): Promise<number> {
  const viz = await client.post<{ id: number }>("/api/visualizations", {
    query_id: queryId,
    ...visualization,
  });
  if (viz.status !== 200) throw new Error(`creating the visualization failed: ${viz.text}`);
  return viz.body.id;
}

/** A dashboard of the visualizations' widgets, two per row as Redash's half-width ones sit. */
export async function createDashboardOf(
  client: TestClient,
  name: string,
  visualizationIds: number[],
): Promise<number> {
  const dashboard = await client.post<{ id: number }>("/api/dashboards", { name });
  if (dashboard.status !== 200) throw new Error(`creating the dashboard failed: ${dashboard.text}`);
  for (const [i, visualizationId] of visualizationIds.entries()) {
    const widget = await client.post("/api/widgets", {
      dashboard_id: dashboard.body.id,
      visualization_id: visualizationId,
      text: "",
      width: 1,
      options: {
        position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 },
      },
    });
    if (widget.status !== 200) throw new Error(`adding a widget failed: ${widget.text}`);
  }
  return dashboard.body.id;
}

/** Downloads a URL with the client's cookies, counting bytes and line feeds without keeping it. */
export async function download(
  client: TestClient,
  url: string,
): Promise<{ status: number; bytes: number; lines: number }> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(client.baseUrl + url, { headers: { cookie } });
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines += 1;
  }
  return { status: res.status, bytes, lines };
}

/**
 * Downloads a gzip-encoded answer as a browser or curl saves it: node:http, inflated by zlib in
 * 1 MB pieces. (fetch()'s own gzip decoding inflates in 16 KB pieces through web streams: for a
 * 112 MB answer that alone took 1.2–1.9 s where this takes 0.5 s and curl 0.3 s, so it measured
 * the reader, not the server.) Counts the inflated bytes and lines as `download` does.
 */
export async function downloadInflated(
  client: TestClient,
  url: string,
): Promise<{ status: number; bytes: number; lines: number; encoding: string }> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http
      .get(client.baseUrl + url, { headers: { cookie, "accept-encoding": "gzip" } }, resolve)
      .on("error", reject),
  );
  const encoding = String(response.headers["content-encoding"] ?? "identity");
  let bytes = 0;
  let lines = 0;
  const body =
    encoding === "gzip" ? response.pipe(zlib.createGunzip({ chunkSize: 1 << 20 })) : response;
  await pipeline(body, async (pieces: AsyncIterable<Buffer>) => {
    for await (const piece of pieces) {
      bytes += piece.byteLength;
      for (let i = piece.indexOf(10); i !== -1; i = piece.indexOf(10, i + 1)) lines += 1;
    }
  });
  return { status: response.statusCode ?? 0, bytes, lines, encoding };
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

/** One line of the summary: a measured figure next to its target. */
export interface Figure {
  benchmark: string;
  measure: string;
  value: string;
  target: string;
  met: boolean | null;
}

/** A benchmark prints its own report and hands back its figures for the summary table. */
export type BenchmarkResult = Figure[];

export function markdownTable(figures: Figure[]): string {
  const lines = [
    "| Benchmark | Measure | Value | Target | Met |",
    "| --- | --- | --- | --- | --- |",
    ...figures.map(
      (f) =>
        `| ${f.benchmark} | ${f.measure} | ${f.value} | ${f.target || "—"} | ${
          f.met === null ? "—" : f.met ? "yes" : "no"
        } |`,
    ),
  ];
  return lines.join("\n");
}

/** True when this module is the script being run (not imported by run-all). */
export function isMain(moduleUrl: string): boolean {
  return (
    process.argv[1] !== undefined && path.resolve(process.argv[1]) === new URL(moduleUrl).pathname
  );
}
