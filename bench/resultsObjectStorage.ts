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
  await waitUntil(async () => (await fetch(endpoint)).status > 0, 30_000, "s3rver");
  return {
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      SIGHTLINE_RESULTS_URL: "s3://results/bench",
    },
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
    return { write: written - started, read: read - written, bytes };
  };
  try {
    // Twice each, alternating; the better run counts (the first warms up both paths).
    type Run = { write: number; read: number };
    const runs: Record<"database" | "objects", Run[]> = { database: [], objects: [] };
    for (let round = 0; round < 2; round += 1) {
      runs.database.push(await measure("database"));
      runs.objects.push(await measure("objects"));
    }
    const best = (list: Run[]) =>
      list.reduce((a, b) => (a.write + a.read <= b.write + b.read ? a : b));
    const inDb = best(runs.database);
    const inObjects = best(runs.objects);
    const total = (r: Run) => r.write + r.read;
    console.log(`metadata database: write ${ms(inDb.write)}, read ${ms(inDb.read)}`);
    console.log(`object storage:    write ${ms(inObjects.write)}, read ${ms(inObjects.read)}`);
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
