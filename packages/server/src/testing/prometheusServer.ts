// A Prometheus server for tests: Debian's prometheus started on 127.0.0.1 on a free port with its
// data in a temp folder, holding fixed samples that promtool wrote as blocks before the start (so
// every run reads the same data). It asks for HTTP basic auth (TEST_PROMETHEUS_USER/PASSWORD).
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, startProcess } from "./processes";
import { installedBinary, startServerProcess } from "./serverProcess";
import { REQUIRE_SERVICES } from "./services";

export interface TestPrometheus {
  /** http://127.0.0.1:<port> */
  url: string;
  user: string;
  password: string;
  stop(): Promise<void>;
}

export const TEST_PROMETHEUS_USER = "sightline";
export const TEST_PROMETHEUS_PASSWORD = "s3cret pass";
/** bcrypt (cost 4) of TEST_PROMETHEUS_PASSWORD, made once with Python's crypt module. */
const PASSWORD_HASH = "$2b$04$Gan0e4ho460Glhuj2KKuTe5QWXCyrnbMDLME8Dx158rM4q/UydxIy";

/** The first sample's time (Unix seconds, 2023-11-14T22:13:20Z) of the fixed data. */
export const PROMETHEUS_T0 = 1_700_000_000;

/**
 * The fixed data as OpenMetrics text: a counter whose second series has a label the first lacks,
 * a gauge with a NaN sample, and `sl_wide` (10 series × 1,000 samples, one a minute, shard n from 10·n up by 1).
 */
export function fixedOpenMetrics(): string {
  const t0 = PROMETHEUS_T0;
  const lines = [
    "# HELP sl_requests_total Requests handled.",
    "# TYPE sl_requests_total counter",
    `sl_requests_total{job="api",code="200"} 10 ${t0}`,
    `sl_requests_total{job="api",code="200"} 20 ${t0 + 60}`,
    `sl_requests_total{job="api",code="500",instance="b:9100"} 1 ${t0}`,
    `sl_requests_total{job="api",code="500",instance="b:9100"} 3 ${t0 + 60}`,
    "# TYPE sl_temperature gauge",
    `sl_temperature{room="kitchen"} 21.5 ${t0}`,
    `sl_temperature{room="kitchen"} 22.25 ${t0 + 60}`,
    `sl_temperature{room="hall"} NaN ${t0 + 60}`,
    "# TYPE sl_wide gauge",
  ];
  for (let series = 0; series < 10; series++) {
    for (let i = 0; i < 1000; i++)
      lines.push(`sl_wide{shard="${series}"} ${i + series * 10} ${t0 + i * 60}`);
  }
  lines.push("# EOF", "");
  return lines.join("\n");
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) })).status < 500;
  } catch {
    return false;
  }
}

/**
 * Starts Prometheus for a test file with the fixed data, or null when it is not installed (then
 * its tests are skipped; under CI=true that is a failure).
 */
export async function startTestPrometheus(): Promise<TestPrometheus | null> {
  const prometheus = installedBinary("prometheus");
  const promtool = installedBinary("promtool");
  if (!prometheus || !promtool) {
    if (REQUIRE_SERVICES)
      throw new Error("Prometheus is required under CI but prometheus/promtool is not installed");
    return null;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "sightline-prometheus-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await writeFile(path.join(dir, "data.om"), fixedOpenMetrics());
  await writeFile(path.join(dir, "prometheus.yml"), "global:\n  scrape_interval: 1h\n");
  await writeFile(
    path.join(dir, "web.yml"),
    `basic_auth_users:\n  ${TEST_PROMETHEUS_USER}: "${PASSWORD_HASH}"\n`,
  );
  const running = await startServerProcess({
    name: "Prometheus",
    url,
    dir,
    async start() {
      await promisify(execFile)(promtool, [
        "tsdb",
        "create-blocks-from",
        "openmetrics",
        path.join(dir, "data.om"),
        path.join(dir, "data"),
      ]);
      return startProcess(
        prometheus,
        [
          `--config.file=${dir}/prometheus.yml`,
          `--web.config.file=${dir}/web.yml`,
          `--storage.tsdb.path=${dir}/data`,
          "--storage.tsdb.retention.time=100y",
          `--web.listen-address=127.0.0.1:${port}`,
          "--log.level=warn",
        ],
        { PATH: process.env.PATH, HOME: dir },
      );
    },
    ready: () => ready(url),
  });
  return {
    url,
    user: TEST_PROMETHEUS_USER,
    password: TEST_PROMETHEUS_PASSWORD,
    stop: () => running.stop(),
  };
}
