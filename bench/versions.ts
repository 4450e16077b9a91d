// Version history (issue 29): saving a query with 1,000 earlier versions next to saving one with
// none (goal ≤ 1.2×), the first page of 1,000 versions next to GET /api/session (goal ≤ 2×), and
// the bytes a version of a 5 kB query changed by one line takes in the store (goal < 2 kB).
import path from "node:path";
import Database from "../packages/server/src/store/sqliteDriver.mjs";
import {
  createDataSource,
  isMain,
  median,
  ms,
  ratio,
  setUpAndLogin,
  spawnSightline,
  tempDir,
  type Figure,
  type TestClient,
} from "./support";

const HISTORY = Number(process.env.BENCH_VERSIONS_HISTORY ?? 1000);
const RUNS = Number(process.env.BENCH_VERSIONS_RUNS ?? 200);
const WARMUP = 20;
const SAVE_TARGET = 1.2;
const LIST_TARGET = 2;
const BYTES_TARGET = 2048;

/** A 5 kB query text of varied lines, as a real report's SQL; `variant` changes one line. */
function reportSql(variant: number): string {
  const words = ["revenue", "orders", "customers", "region", "channel", "margin", "refunds"];
  const lines = ["SELECT"];
  for (let i = 0; lines.join("\n").length < 5000; i += 1) {
    const w = words[i % words.length]!;
    const factor = ((i * 13) % 17) + 1;
    lines.push(
      `  SUM(CASE WHEN t.${w}_kind = 'k${(i * 37) % 101}' THEN t.${w}_amount * ${factor} ELSE 0 END) AS ${w}_${i},`,
    );
  }
  lines[3] = `  SUM(t.revenue_amount) * ${variant} AS scaled_revenue_${variant},`;
  lines.push("  COUNT(*) AS n\nFROM facts t\nWHERE t.day >= date('now', '-30 days')");
  return lines.join("\n");
}

interface Saved {
  id: number;
  version: number;
}

async function save(client: TestClient, query: Saved, variant: number): Promise<Saved> {
  const res = await client.post<Saved>(`/api/queries/${query.id}`, {
    query: reportSql(variant),
    version: query.version,
  });
  if (res.status !== 200) throw new Error(`save answered ${res.status}: ${res.text}`);
  return res.body;
}

/** The interleaved medians, on a server at `url`. */
async function measure(url: string) {
  const client = await setUpAndLogin(url);
  const dsId = await createDataSource(client, "Memory", "duckdb", { dbpath: ":memory:" });
  const create = async (name: string) => {
    const res = await client.post<Saved>("/api/queries", {
      name,
      query: reportSql(0),
      data_source_id: dsId,
    });
    if (res.status !== 200) throw new Error(`create answered ${res.status}`);
    return res.body;
  };
  let long = await create("Long history");
  const longId = long.id;
  for (let i = 1; i <= HISTORY; i += 1) long = await save(client, long, i);
  // One fresh query per measured save: each of those saves is its query's first.
  const fresh: Saved[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) fresh.push(await create(`Fresh ${i}`));

  const freshTimes: number[] = [];
  const longTimes: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    let start = performance.now();
    await save(client, fresh[i]!, 1);
    const a = performance.now() - start;
    start = performance.now();
    long = await save(client, long, HISTORY + 1 + i);
    const b = performance.now() - start;
    if (i >= WARMUP) {
      freshTimes.push(a);
      longTimes.push(b);
    }
  }

  const sessionTimes: number[] = [];
  const listTimes: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    for (const [target, times] of [
      ["/api/session", sessionTimes],
      [`/api/queries/${long.id}/versions?page=1&page_size=25`, listTimes],
    ] as const) {
      const start = performance.now();
      const res = await client.get(target);
      if (res.status !== 200) throw new Error(`${target} answered ${res.status}`);
      if (i >= WARMUP) times.push(performance.now() - start);
    }
  }
  return {
    saveFresh: median(freshTimes),
    saveLong: median(longTimes),
    session: median(sessionTimes),
    list: median(listTimes),
    longId,
  };
}

export async function versionsBenchmark(): Promise<Figure[]> {
  const dataDir = tempDir("versions");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  const measured = await measure(server.url).finally(() => server.stop());
  const { saveFresh, saveLong, session, list, longId } = measured;

  const db = new Database(path.join(dataDir, "sightline.db"), { readonly: true });
  const sizes = db
    .prepare(
      "SELECT count(*) AS n, avg(length(snapshot)) AS avg, max(length(snapshot)) AS max " +
        "FROM object_versions WHERE object_type = 'queries' AND object_id = ?",
    )
    .get(longId) as { n: number; avg: number; max: number };
  db.close();

  const saveMet = saveLong <= SAVE_TARGET * saveFresh;
  const listMet = list <= LIST_TARGET * session;
  const bytesMet = sizes.max < BYTES_TARGET;
  console.log(`\n## Version history (median of ${RUNS} requests each, interleaved)\n`);
  console.log(`save, query with no earlier version     median ${ms(saveFresh)}`);
  console.log(
    `save, query with ${HISTORY}+ versions      median ${ms(saveLong)} (${ratio(saveLong, saveFresh)})`,
  );
  console.log(`GET /api/session                        median ${ms(session)}`);
  console.log(
    `GET …/versions, first page of ${sizes.n}   median ${ms(list)} (${ratio(list, session)} of the session GET)`,
  );
  console.log(
    `bytes per version (5 kB text, one line changed): average ${Math.round(sizes.avg)}, largest ${sizes.max}`,
  );
  return [
    {
      benchmark: "versions",
      measure: `save of a query with ${HISTORY} earlier versions vs one with none (median)`,
      value: `${ms(saveLong)} vs ${ms(saveFresh)} (${ratio(saveLong, saveFresh)})`,
      target: `≤ ${SAVE_TARGET}×`,
      met: saveMet,
    },
    {
      benchmark: "versions",
      measure: `GET …/versions first page of ${sizes.n} vs GET /api/session (median)`,
      value: `${ms(list)} vs ${ms(session)} (${ratio(list, session)})`,
      target: `≤ ${LIST_TARGET}×`,
      met: listMet,
    },
    {
      benchmark: "versions",
      measure: "stored bytes per version, 5 kB query text changed by one line",
      value: `average ${Math.round(sizes.avg)} B, largest ${sizes.max} B`,
      target: "< 2 kB",
      met: bytesMet,
    },
  ];
}

if (isMain(import.meta.url)) await versionsBenchmark();
