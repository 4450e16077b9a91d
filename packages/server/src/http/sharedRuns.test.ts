import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  metadataDatabases,
  plainPgRole,
  postgresAvailable,
  TEST_PG_URL,
} from "../testing/services";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const pgUrl = new URL(TEST_PG_URL);

interface RunAnswer {
  job?: { id: string; status: number };
  query_result?: { id: number };
}

/**
 * A dashboard's Refresh sends one run per widget; widgets showing the same query with the same
 * parameter values must cost one execution (spec: identical query and parameter combinations
 * share it), as Redash's job lock by query hash makes sure.
 */
describe.skipIf(!(await postgresAvailable())).each(DATABASES)(
  "identical concurrent runs share one execution on %s",
  (dbKind) => {
    let server: TestServer;
    let api: TestClient;
    let queryId: number;
    const marker = `shared_run_${dbKind}`;

    beforeAll(async () => {
      server = await startTestServer(dbKind);
      api = await setUpAndLogin(server.url);
      const dataSourceId = await createDataSource(api, "Slow PG", "pg", {
        host: pgUrl.hostname,
        port: Number(pgUrl.port || 5432),
        // A plain account: a superuser beside the metadata database is refused.
        user: await plainPgRole(),
        // Not the test database, which the PostgreSQL metadata store uses.
        dbname: "postgres",
        sslmode: "disable",
      });
      // Long enough that every request arrives while the first run is still going.
      const query = await api.post<{ id: number }>("/api/queries", {
        name: "Slow",
        query: `SELECT {{ n }}::int AS ${marker} FROM pg_sleep(1)`,
        data_source_id: dataSourceId,
        options: { parameters: [{ name: "n", title: "n", type: "number", value: 1 }] },
      });
      expect(query.status, query.text).toBe(200);
      queryId = query.body.id;
    });
    afterAll(async () => {
      await server?.close();
    });

    const run = (n: number) =>
      api.post<RunAnswer>(`/api/queries/${queryId}/results`, {
        parameters: { n },
        max_age: 0,
      });
    const storedResults = async () => {
      const rows = await server.ctx.database.db
        .selectFrom("query_results")
        .select(["id", "query"])
        .execute();
      return rows.filter((r) => r.query.includes(marker));
    };
    const finished = async (jobId: string) => {
      for (;;) {
        const job = (await api.get<{ job: { status: number } }>(`/api/jobs/${jobId}`)).body.job;
        if (job.status >= 3) return job.status;
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it("answers five identical refreshes with one job and stores one result", async () => {
      const answers = await Promise.all([1, 1, 1, 1, 1].map(run));
      const jobIds = answers.map((a) => a.body.job?.id);
      expect(jobIds.every((id) => id !== undefined)).toBe(true);
      expect(new Set(jobIds).size).toBe(1);
      expect(await finished(jobIds[0]!)).toBe(3);
      expect(await storedResults()).toHaveLength(1);
    });

    it("runs different parameter values apart", async () => {
      const before = (await storedResults()).length;
      const answers = await Promise.all([2, 3, 2].map(run));
      const jobIds = answers.map((a) => a.body.job!.id);
      expect(jobIds[0]).toBe(jobIds[2]);
      expect(jobIds[1]).not.toBe(jobIds[0]);
      await Promise.all([finished(jobIds[0]!), finished(jobIds[1]!)]);
      expect(await storedResults()).toHaveLength(before + 2);
    });
  },
);
