// Query list pages of an organisation with many queries: GET /api/queries (first page, a
// search, another order) on the embedded default, with 5,000 saved queries.
import path from "node:path";
import Database from "../packages/server/src/store/sqliteDriver.mjs";
import {
  createDataSource,
  isMain,
  median,
  ms,
  setUpAndLogin,
  spawnSightline,
  tempDir,
  type Figure,
} from "./support";

const QUERIES = Number(process.env.BENCH_LIST_QUERIES ?? 5000);
const RUNS = 15;

/** A realistic saved query: a few hundred characters of SQL. */
const TEXT = `SELECT c.country, date_trunc('month', o.created_at) AS month, count(*) AS orders,
  sum(o.amount) AS revenue, avg(o.amount) AS average_order
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE o.created_at >= now() - INTERVAL 12 MONTH AND o.status <> 'cancelled'
GROUP BY 1, 2 ORDER BY 2, 4 DESC`;

export async function queryListBenchmark(): Promise<Figure[]> {
  const dataDir = tempDir("list");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  try {
    const client = await setUpAndLogin(server.url);
    const dsId = await createDataSource(client, "Memory", "duckdb", { dbpath: ":memory:" });
    const first = await client.post<{ id: number }>("/api/queries", {
      name: "Query 0",
      query: TEXT,
      data_source_id: dsId,
    });
    // The rest are copies of the first, written straight into the store (through the API this
    // would take minutes); the server reads them as any other saved query.
    const store = new Database(path.join(dataDir, "sightline.db"));
    const template = store
      .prepare("SELECT * FROM queries WHERE id = ?")
      .get(first.body.id) as Record<string, unknown>;
    delete template.id;
    const columns = Object.keys(template);
    const insert = store.prepare(
      `INSERT INTO queries (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
    store.transaction(() => {
      for (let i = 1; i < QUERIES; i += 1) {
        const row: Record<string, unknown> = {
          ...template,
          name: `Query ${i}`,
          api_key: `bench-${i}`,
        };
        insert.run(...columns.map((c) => row[c]));
      }
    })();
    store.close();

    const figures: Figure[] = [];
    console.log(`\n## Query list (${QUERIES} saved queries, median of ${RUNS} requests)\n`);
    // [label, URL, how many queries it lists]
    for (const [label, url, expected] of [
      ["first page", "/api/queries?page_size=20", QUERIES],
      ["search matching all", "/api/queries?page_size=20&q=revenue", QUERIES],
      ["search matching two", "/api/queries?page_size=20&q=4999", 2],
      ["ordered by name, page 10", "/api/queries?page_size=20&order=name&page=10", QUERIES],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const start = performance.now();
        const res = await client.get<{ count: number }>(url);
        times.push(performance.now() - start);
        if (res.status !== 200 || res.body.count !== expected) {
          throw new Error(`${url} answered ${res.status} with ${res.body.count} queries`);
        }
      }
      console.log(`${label.padEnd(26)} median ${ms(median(times))}`);
      figures.push({
        benchmark: "query list",
        measure: `${label} of ${QUERIES} queries (median)`,
        value: ms(median(times)),
        target: "",
        met: null,
      });
    }
    return figures;
  } finally {
    await server.stop();
  }
}

if (isMain(import.meta.url)) await queryListBenchmark();
