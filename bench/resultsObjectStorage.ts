// A 1,000,000-row × 6-column result written to and read back from object storage (s3rver, an
// S3-compatible server from npm, in its own process on 127.0.0.1 with its objects on disk, as a
// real store is elsewhere) next to the same in the metadata database (SQLite): the result store's
// own path (results/resultStore.ts), without HTTP.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { loadConfig } from "../packages/server/src/config";
import { DEFAULT_RESULT_LIMITS } from "../packages/server/src/results/limits";
import { useResultsStorage } from "../packages/server/src/results/resultsStorage";
import { readResultChunkTexts, writeResult } from "../packages/server/src/results/resultStore";
import type { Cell, ResultColumn } from "../packages/server/src/runners/types";
import { openTestStore } from "../packages/server/src/testing/metadataStore";
import { freePort, waitUntil } from "../packages/server/src/testing/processes";
import { isMain, ms, ratio, tempDir, type Figure } from "./support";

const ROWS = Number(process.env.BENCH_OBJECT_ROWS ?? 1_000_000);
const BATCH = 2048;
/** Rounds of both, alternating (the machine is shared: one round's ratio moves with its load). */
const ROUNDS = Number(process.env.BENCH_OBJECT_ROUNDS ?? 3);
const COLUMNS: ResultColumn[] = ["id", "name", "amount", "quantity", "created_at", "active"].map(
  (name) => ({ name, friendly_name: name, type: name === "name" ? "string" : "integer" }),
);

async function* batches(): AsyncGenerator<Cell[][]> {
  for (let start = 0; start < ROWS; start += BATCH) {
    const rows: Cell[][] = [];
    for (let i = start; i < Math.min(ROWS, start + BATCH); i += 1) {
      rows.push([i, `customer ${i}`, i * 1.37, i % 97, `2024-01-01T00:00:${i % 60}Z`, i % 3 === 0]);
    }
    yield rows;
  }
}

/** s3rver in a child process with a bucket "results"; its endpoint and credentials. */
async function startS3rverProcess() {
  const require = createRequire(path.resolve("packages/server/package.json"));
  const bin = path.join(path.dirname(require.resolve("s3rver/package.json")), "bin/s3rver.js");
  const directory = tempDir("s3");
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [bin, "-d", directory, "-a", "127.0.0.1", "-p", String(port), "-s"].concat([
      "--configure-bucket",
      "results",
    ]),
    { stdio: "ignore" },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  /** CPU time s3rver used so far, ms (Linux: utime + stime from /proc, in 10 ms ticks). */
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  await waitUntil(async () => (await fetch(endpoint)).status > 0, 30_000, "s3rver");
  return {
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      SIGHTLINE_RESULTS_URL: "s3://results/bench",
    },
    cpuMs,
    close() {
      child.kill();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export async function resultsObjectStorageBenchmark(): Promise<Figure[]> {
  console.log(`\n# resultsObjectStorage.ts — ${ROWS} rows × 6, written and read back\n`);
  const store = await openTestStore();
  const s3 = await startS3rverProcess();
  const db = store.database.db;
  const objects = loadConfig(s3.env);
  const measure = async (where: "database" | "objects") => {
    await useResultsStorage(db, where === "objects" ? objects.resultsStorage : null);
    const s3Cpu = s3.cpuMs();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const meta = await writeResult(db, {
      orgId: store.orgId,
      dataSourceId: store.dataSourceId,
      queryHash: where,
      query: "bench",
      columns: COLUMNS,
      batches: batches(),
      startedAt: Date.now(),
      limits: DEFAULT_RESULT_LIMITS,
    });
    const written = performance.now();
    let bytes = 0;
    for await (const { text } of readResultChunkTexts(db, meta)) bytes += text.length;
    const read = performance.now();
    const { user, system } = process.cpuUsage(cpu);
    return {
      write: written - started,
      read: read - written,
      bytes,
      s3Cpu: s3.cpuMs() - s3Cpu,
      cpu: (user + system) / 1000,
    };
  };
  try {
    // Alternating rounds; the best run of each counts (the first warms up both paths), and each
    // round's own ratio shows the spread.
    // CPU time (this process's and s3rver's) moves less with the machine's load than time does.
    type Run = { write: number; read: number; s3Cpu: number; cpu: number };
    const cpu = (r: Run) => r.cpu + r.s3Cpu;
    const runs: Record<"database" | "objects", Run[]> = { database: [], objects: [] };
    const total = (r: Run) => r.write + r.read;
    for (let round = 0; round < ROUNDS; round += 1) {
      const inDb = await measure("database");
      const inObjects = await measure("objects");
      runs.database.push(inDb);
      runs.objects.push(inObjects);
      console.log(
        `round ${round + 1}: metadata database ${ms(total(inDb))}, object storage ` +
          `${ms(total(inObjects))} (s3rver's CPU ${ms(inObjects.s3Cpu)}): ` +
          `${ratio(total(inObjects), total(inDb))}; CPU ${ms(cpu(inDb))} and ${ms(cpu(inObjects))}: ` +
          ratio(cpu(inObjects), cpu(inDb)),
      );
    }
    const best = (list: Run[]) => list.reduce((a, b) => (total(a) <= total(b) ? a : b));
    const inDb = best(runs.database);
    const inObjects = best(runs.objects);
    console.log(`metadata database: write ${ms(inDb.write)}, read ${ms(inDb.read)}`);
    console.log(
      `object storage:    write ${ms(inObjects.write)}, read ${ms(inObjects.read)} ` +
        `(s3rver's CPU ${ms(inObjects.s3Cpu)})`,
    );
    const r = total(inObjects) / total(inDb);
    console.log(`object storage / metadata database: ${ratio(total(inObjects), total(inDb))}`);
    return [
      {
        benchmark: "resultsObjectStorage",
        measure: `${ROWS} rows written + read, object storage vs metadata database`,
        value: ratio(total(inObjects), total(inDb)),
        target: "≤ 1.2×",
        met: r <= 1.2,
      },
    ];
  } finally {
    s3.close();
    await store.database.close();
  }
}

if (isMain(import.meta.url)) {
  await resultsObjectStorageBenchmark();
  process.exit(0);
}
