// GET /api/dashboards/{id} of a dashboard with 50 widgets (over 10 queries, a few text boxes) on
// the embedded default, next to a plain authenticated GET /api/session (issue 16: within 2×).
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

const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 200);
const WARMUP = 20;
const WIDGETS = 50;
const TARGET_RATIO = 2;

/**
 * The medians of GETs of each url, the urls taken in turn request by request, so a slower or
 * faster spell of a noisy machine falls on both alike.
 */
async function interleavedMedians(client: TestClient, urls: string[]): Promise<number[]> {
  const times: number[][] = urls.map(() => []);
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    for (const [index, url] of urls.entries()) {
      const start = performance.now();
      const res = await client.get(url);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      if (i >= WARMUP) times[index]!.push(performance.now() - start);
    }
  }
  return times.map(median);
}

export async function dashboardBenchmark(): Promise<Figure[]> {
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: tempDir("dashboard"),
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  try {
    const client = await setUpAndLogin(server.url);
    const dsId = await createDataSource(client, "Memory", "duckdb", { dbpath: ":memory:" });
    const vizIds: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const query = await client.post<{ visualizations: { id: number }[] }>("/api/queries", {
        name: `Query ${i}`,
        query: `SELECT ${i} AS n`,
        data_source_id: dsId,
      });
      vizIds.push(query.body.visualizations[0]!.id);
    }
    const dashboard = await client.post<{ id: number }>("/api/dashboards", { name: "Fifty" });
    for (let i = 0; i < WIDGETS; i += 1) {
      const text = i % 10 === 9;
      await client.post("/api/widgets", {
        dashboard_id: dashboard.body.id,
        visualization_id: text ? null : vizIds[i % vizIds.length],
        text: text ? "## Notes" : "",
        width: 1,
        options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
      });
    }

    const [session, read] = await interleavedMedians(client, [
      "/api/session",
      `/api/dashboards/${dashboard.body.id}`,
    ]);
    const met = read <= TARGET_RATIO * session;
    console.log(
      `\n## Dashboard read (${WIDGETS} widgets, median of ${RUNS} requests each, interleaved)\n`,
    );
    console.log(`GET /api/session             median ${ms(session)}`);
    console.log(
      `GET /api/dashboards/{id}     median ${ms(read)} (${ratio(read, session)} of the session GET)`,
    );
    return [
      {
        benchmark: "dashboard",
        measure: `GET /api/dashboards/{id}, ${WIDGETS} widgets (median) vs GET /api/session`,
        value: `${ms(read)} vs ${ms(session)} (${ratio(read, session)})`,
        target: `≤ ${TARGET_RATIO}×`,
        met,
      },
    ];
  } finally {
    await server.stop();
  }
}

if (isMain(import.meta.url)) await dashboardBenchmark();
