import { applyAutoLimit } from "@sightline/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases, plainPgRole, TEST_PG_URL } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, TestClient, type Response } from "../testing/httpClient";
import { makeSqliteFile } from "../testing/apiServer";

/**
 * A dashboard's share key opens that dashboard and the results of its widgets' queries, and
 * nothing else (SECURITY.md rules 4, 5, 8; api-platform.md §2.3, §6.6, §7.5).
 */

const DATABASES = await metadataDatabases();
const pgUrl = new URL(TEST_PG_URL);

/** Expects a 4xx `{message}` answer of one of the statuses. */
function refused(res: Response<any>, ...statuses: number[]) {
  expect(statuses, `${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
  expect(typeof res.body.message, res.text.slice(0, 200)).toBe("string");
}

/** An anonymous client whose every call carries the share key as Redash's public page sends it. */
function viewerWith(server: TestServer, token: string): TestClient {
  const client = new TestClient(server.url);
  client.apiKey = token;
  return client;
}

describe.each(DATABASES)("public dashboards on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let shop: number;
  let token: string;
  let board: { id: number };
  let otherBoard: { id: number };
  /** On the shared dashboard: plain, with a number parameter, with a text parameter, scheduled. */
  let plain: { id: number; text: string };
  let numbered: { id: number; text: string };
  let unsafe: { id: number; text: string };
  let scheduled: { id: number; text: string };
  /** Not on the shared dashboard. */
  let hidden: { id: number; text: string };
  let hiddenResultId: number;

  const newQuery = async (text: string, options: object = {}, schedule: object | null = null) => {
    const res = await admin.post("/api/queries", {
      name: `Query ${text.slice(0, 30)}`,
      query: text,
      data_source_id: shop,
      options,
      schedule,
    });
    expect(res.status).toBe(200);
    await admin.post(`/api/queries/${res.body.id}`, { is_draft: false });
    return { id: res.body.id as number, text, vizId: res.body.visualizations[0].id as number };
  };

  const addWidget = async (dashboardId: number, vizId: number | null) => {
    const res = await admin.post("/api/widgets", {
      dashboard_id: dashboardId,
      visualization_id: vizId,
      width: 1,
      text: vizId ? "" : "A note",
      options: {},
    });
    expect(res.status).toBe(200);
  };

  /** Waits for a job to end. */
  const finished = async (jobId: string) => {
    while (((await server.ctx.execution.getJob(jobId))?.status ?? 3) < 3) {
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** The result a query shows now (what a run just stored, or found in the cache). */
  const latestResultId = async (queryId: number) =>
    (await admin.get(`/api/queries/${queryId}`)).body.latest_query_data_id as number;

  /** The number of results stored (one per execution of a query). */
  const storedResults = async () =>
    Number(
      (
        await server.ctx.database.db
          .selectFrom("query_results")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /**
   * Runs a query through a share key (or a user) and gives the result id it answered with
   * (API keys are answered without it: undefined).
   */
  const runResultId = async (client: TestClient, queryId: number, body: object = {}) => {
    const res = await client.post(`/api/queries/${queryId}/results`, body);
    expect(res.status, res.text).toBe(200);
    if (res.body.query_result) return res.body.query_result.id as number;
    let job = res.body.job;
    while (job.status < 3) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await client.get(`/api/jobs/${job.id}`)).body.job;
    }
    expect(job.status).toBe(3);
    return job.query_result_id as number;
  };

  beforeAll(async () => {
    server = await startTestServer(db, { SIGHTLINE_PUBLIC_RATE_LIMIT: "100000" });
    admin = await setUpAndLogin(server.url);
    const file = makeSqliteFile(server);
    shop = (
      await admin.post("/api/data_sources", {
        name: "Shop",
        type: "sqlite",
        options: { dbpath: file },
      })
    ).body.id;
    const plainQ = await newQuery("SELECT id, name FROM people -- public plain");
    const numberedQ = await newQuery("SELECT name FROM people WHERE id = {{ id }}", {
      parameters: [{ name: "id", title: "id", type: "number", value: 1 }],
    });
    const unsafeQ = await newQuery("SELECT name FROM people WHERE name = '{{ who }}'", {
      parameters: [{ name: "who", title: "who", type: "text", value: "John" }],
    });
    const scheduledQ = await newQuery(
      "SELECT count(*) AS n FROM people -- scheduled",
      {},
      { interval: 3600, time: null, day_of_week: null, until: null },
    );
    const hiddenQ = await newQuery("SELECT value FROM people -- not on the board");
    [plain, numbered, unsafe, scheduled, hidden] = [
      plainQ,
      numberedQ,
      unsafeQ,
      scheduledQ,
      hiddenQ,
    ];

    board = (await admin.post("/api/dashboards", { name: "Public board" })).body;
    for (const q of [plainQ, numberedQ, scheduledQ]) await addWidget(board.id, q.vizId);
    await addWidget(board.id, null);
    otherBoard = (await admin.post("/api/dashboards", { name: "Private board" })).body;
    await addWidget(otherBoard.id, hiddenQ.vizId);
    token = (await admin.post(`/api/dashboards/${board.id}/share`)).body.api_key;
    // A widget added after sharing: its query has a text parameter, so it never runs publicly.
    await addWidget(board.id, unsafeQ.vizId);
    hiddenResultId = await runResultId(admin, hiddenQ.id, { max_age: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reads its dashboard with the key in the header or the address, without query text or e-mails", async () => {
    for (const path of [
      `/api/dashboards/public/${token}`,
      `/api/dashboards/public/${token}?api_key=${token}`,
    ]) {
      const page = await new TestClient(server.url).get(path);
      expect(page.status).toBe(200);
      expect(page.body.widgets).toHaveLength(5);
      for (const q of [plain, numbered, unsafe, scheduled]) expect(page.text).not.toContain(q.text);
      expect(page.text).not.toContain("@");
      expect(page.text).not.toContain(token);
      for (const w of page.body.widgets) {
        expect(Object.keys(w).sort()).toEqual(
          ["created_at", "id", "options", "text", "updated_at", "width"]
            .concat(w.visualization ? ["visualization"] : [])
            .sort(),
        );
        if (w.visualization) {
          expect(Object.keys(w.visualization).sort()).toEqual([
            "created_at",
            "description",
            "name",
            "options",
            "query",
            "type",
            "updated_at",
          ]);
          expect(Object.keys(w.visualization.query).sort()).toEqual([
            "description",
            "id",
            "name",
            "options",
          ]);
        }
      }
    }
  });

  it("starts the web app: its session has no user, only the client settings", async () => {
    const session = await viewerWith(server, token).get("/api/session");
    expect(session.status).toBe(200);
    expect(session.body.user).toEqual({ permissions: [], apiKey: token });
    expect(session.text).not.toContain("admin@");
    expect((await viewerWith(server, token).get("/api/config")).status).toBe(200);
  });

  it("runs and reads its widgets' queries only, with validated parameters", async () => {
    const viewer = viewerWith(server, token);
    await runResultId(viewer, plain.id);
    const plainResult = await latestResultId(plain.id);
    const numbered2 = await viewer.post(`/api/queries/${numbered.id}/results`, {
      parameters: { id: 2 },
    });
    expect(numbered2.body.query_result.data.rows).toEqual([{ name: "Ann" }]);
    // Through ?api_key= as well.
    const byAddress = new TestClient(server.url);
    expect(
      (await byAddress.post(`/api/queries/${plain.id}/results?api_key=${token}`, {})).status,
    ).toBe(200);

    refused(
      await viewer.post(`/api/queries/${numbered.id}/results`, { parameters: { id: "1 OR 1=1" } }),
      400,
    );
    const unsafeRun = await viewer.post(`/api/queries/${unsafe.id}/results`, {
      parameters: { who: "x' OR '1'='1" },
    });
    expect(unsafeRun.status).toBe(403);
    expect(unsafeRun.body.job.error).toContain("unsafe parameters");
    const hiddenRun = await viewer.post(`/api/queries/${hidden.id}/results`, {});
    expect(hiddenRun.status).toBe(403);
    expect(hiddenRun.body.job.error).toBe(
      "You do not have permission to run queries with this data source.",
    );

    // Results of its queries, through each result route the page may call.
    for (const path of [
      `/api/query_results/${plainResult}`,
      `/api/queries/${plain.id}/results/${plainResult}.json`,
      `/api/queries/${plain.id}/results`,
    ]) {
      const res = await viewer.get(path);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
      expect(res.body.query_result.data.rows).toHaveLength(2);
    }

    // Anything else: another query's result by any route, however it is named.
    for (const path of [
      `/api/query_results/${hiddenResultId}`,
      `/api/query_results/${hiddenResultId}.csv`,
      `/api/queries/${plain.id}/results/${hiddenResultId}.json`,
      `/api/queries/${hidden.id}/results/${hiddenResultId}.json`,
      `/api/queries/${hidden.id}/results`,
      `/api/queries/${hidden.id}/results.csv`,
    ]) {
      refused(await viewer.get(path), 403, 404);
    }
  });

  it("lists the options of its queries' dropdown parameters, and of no other query", async () => {
    const names = await newQuery("SELECT name FROM people -- dropdown source");
    await runResultId(admin, names.id, { max_age: 0 });
    const picker = await newQuery("SELECT id FROM people WHERE name = {{ who }}", {
      parameters: [{ name: "who", title: "who", type: "query", queryId: names.id, value: "Ann" }],
    });
    await addWidget(board.id, picker.vizId);
    const viewer = viewerWith(server, token);
    const options = await viewer.get(`/api/queries/${picker.id}/dropdowns/${names.id}`);
    expect(options.status, options.text).toBe(200);
    expect(options.body).toEqual([
      { name: "John", value: "John" },
      { name: "Ann", value: "Ann" },
    ]);
    refused(await viewer.get(`/api/queries/${picker.id}/dropdowns/${hidden.id}`), 403, 404);
    refused(await viewer.get(`/api/queries/${hidden.id}/dropdowns/${names.id}`), 403, 404);
    refused(await viewer.get(`/api/queries/${names.id}/dropdown`), 403, 404);
    refused(await viewer.get(`/api/queries/${hidden.id}/dropdown`), 403, 404);
  });

  it("opens nothing else: other dashboards, queries, data sources, users, events, settings", async () => {
    const viewer = viewerWith(server, token);
    const reads = [
      "/api/dashboards",
      "/api/dashboards/my",
      "/api/dashboards/favorites",
      "/api/dashboards/tags",
      `/api/dashboards/${board.id}`,
      `/api/dashboards/${otherBoard.id}`,
      "/api/queries",
      "/api/queries/my",
      "/api/queries/recent",
      `/api/queries/${plain.id}`,
      `/api/queries/${hidden.id}`,
      "/api/data_sources",
      `/api/data_sources/${shop}`,
      `/api/data_sources/${shop}/schema`,
      "/api/users",
      "/api/users/1",
      "/api/groups",
      "/api/events",
      "/api/alerts",
      "/api/destinations",
      "/api/settings/organization",
      "/api/query_snippets",
      "/api/admin/queries/outdated",
    ];
    for (const path of reads) {
      const res = await viewer.get(path);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text).not.toContain(plain.text);
      expect(res.text).not.toContain("admin@");
    }
    const writes: [string, string, object][] = [
      ["POST", "/api/query_results", { data_source_id: shop, query: "SELECT 1" }],
      ["POST", `/api/queries/${plain.id}`, { name: "Hijacked" }],
      ["POST", `/api/queries/${plain.id}/refresh`, {}],
      ["POST", `/api/dashboards/${board.id}`, { name: "Hijacked" }],
      ["POST", `/api/dashboards/${board.id}/share`, {}],
      ["DELETE", `/api/dashboards/${board.id}/share`, {}],
      ["POST", "/api/widgets", { dashboard_id: board.id, visualization_id: null, text: "x" }],
    ];
    for (const [method, path, json] of writes) {
      const res = await viewer.request(method, path, { json });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(res.status, path).toBeLessThan(500);
    }
    expect((await admin.get(`/api/dashboards/${board.id}`)).body.name).toBe("Public board");
    expect((await admin.get(`/api/queries/${plain.id}`)).body.name).not.toBe("Hijacked");
    // The page's usage events are recorded under the key's name (never the key itself).
    const reported = await viewer.post("/api/events", [
      { action: "view", object_type: "dashboard", object_id: board.id },
    ]);
    expect(reported.status).toBe(200);
    const events = await admin.get("/api/events?page_size=5");
    expect(events.body.results[0]).toMatchObject({
      user_id: null,
      user_name: `ApiKey: dashboards ${board.id}`,
    });
    expect(events.text).not.toContain(token);
  });

  it("polls only jobs of its own queries", async () => {
    const viewer = viewerWith(server, token);
    const started = async (queryId: number, text: string) => {
      const outcome = await server.ctx.execution.execute({
        orgId: 1,
        dataSourceId: shop,
        queryText: text,
        queryId,
        userId: null,
        scheduled: false,
        maxAge: 0,
        noWait: true,
      });
      expect(outcome.kind).toBe("job");
      return outcome.kind === "job" ? outcome.job.id : "";
    };
    // The text a run of the saved query executes (comments go with the auto-limit step).
    const own = await started(plain.id, applyAutoLimit(plain.text, false));
    const foreign = await started(hidden.id, applyAutoLimit(hidden.text, false));
    // Another query's id with arbitrary text: not a run of the board's query either.
    const disguised = await started(plain.id, "SELECT value FROM people -- disguised");
    const ownPoll = await viewer.get(`/api/jobs/${own}`);
    expect(ownPoll.status, ownPoll.text).toBe(200);
    expect((await viewer.get(`/api/queries/${plain.id}/jobs/${own}`)).status).toBe(200);
    for (const path of [
      `/api/jobs/${foreign}`,
      `/api/queries/${hidden.id}/jobs/${foreign}`,
      `/api/queries/${plain.id}/jobs/${foreign}`,
      `/api/jobs/${disguised}`,
    ]) {
      refused(await viewer.get(path), 403, 404);
    }
    refused(await viewer.request("DELETE", `/api/jobs/${foreign}`), 403, 404);
    // Finished before the next test counts executions.
    for (const id of [own, foreign, disguised]) await finished(id);
  });

  it("reads a run with changed parameter values, and no result those values did not make", async () => {
    // A PostgreSQL query slow enough that every run answers with a job to poll.
    const slow = await admin.post("/api/data_sources", {
      name: "Slow pg",
      type: "pg",
      options: {
        host: pgUrl.hostname,
        port: Number(pgUrl.port || 5432),
        // A plain account: a superuser beside the metadata database is refused.
        user: await plainPgRole(),
        // Not the test database, which PostgreSQL metadata uses (no data source may read it).
        dbname: "postgres",
        sslmode: "disable",
      },
    });
    expect(slow.status, slow.text).toBe(200);
    const created = await admin.post("/api/queries", {
      name: "Days in a period",
      query:
        "SELECT to_char(d, 'YYYY-MM-DD') AS day FROM pg_sleep(1.5) AS pause, " +
        "generate_series('{{ period.start }}'::date, '{{ period.end }}'::date, interval '1 day') AS d",
      data_source_id: slow.body.id,
      options: {
        parameters: [
          {
            name: "period",
            title: "period",
            type: "date-range",
            value: { start: "2026-01-01", end: "2026-01-02" },
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(200);
    const ranged = created.body.id as number;
    await admin.post(`/api/queries/${ranged}`, { is_draft: false });
    await addWidget(board.id, created.body.visualizations[0].id);

    const viewer = viewerWith(server, token);
    const march = "p_period=2026-03-01--2026-03-03";
    const april = "p_period=2026-04-01--2026-04-02";
    /** Starts a run (always a job here) and polls it with the values, as the public page does. */
    const run = async (client: TestClient, start: string, end: string) => {
      const res = await client.post(`/api/queries/${ranged}/results`, {
        parameters: { period: { start, end } },
        max_age: 0,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.job, res.text).toBeDefined();
      return res.body.job.id as string;
    };
    const pollDone = async (jobId: string, args: string) => {
      let job = { status: 0, query_result_id: null as number | null };
      while (job.status < 3) {
        const res = await viewer.get(`/api/jobs/${jobId}?${args}`);
        expect(res.status, res.text).toBe(200);
        job = res.body.job;
        if (job.status < 3) await new Promise((r) => setTimeout(r, 100));
      }
      expect(job.status).toBe(3);
      return job.query_result_id!;
    };

    const jobId = await run(viewer, "2026-03-01", "2026-03-03");
    const resultId = await pollDone(jobId, march);
    for (const path of [
      `/api/query_results/${resultId}?${march}`,
      `/api/queries/${ranged}/results/${resultId}.json?${march}`,
    ]) {
      const res = await viewer.get(path);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
      expect(res.body.query_result.data.rows).toEqual([
        { day: "2026-03-01" },
        { day: "2026-03-02" },
        { day: "2026-03-03" },
      ]);
    }
    // The result id without the values, with other values or invalid ones: refused.
    for (const args of ["", april, "p_period=2026-03-01", "p_period=x--y", "p_other=1"]) {
      refused(await viewer.get(`/api/query_results/${resultId}?${args}`), 403, 404);
      refused(
        await viewer.get(`/api/queries/${ranged}/results/${resultId}.json?${args}`),
        403,
        404,
      );
    }
    // Another query's result under these values, or through this query's address: refused.
    refused(await viewer.get(`/api/query_results/${hiddenResultId}?${march}`), 403, 404);
    refused(
      await viewer.get(`/api/queries/${ranged}/results/${hiddenResultId}.json?${march}`),
      403,
      404,
    );

    // A signed-in user's run of other values: the viewer's values do not open its job.
    const adminJob = await run(admin, "2026-04-01", "2026-04-02");
    refused(await viewer.get(`/api/jobs/${adminJob}?${march}`), 404);
    refused(await viewer.get(`/api/jobs/${adminJob}`), 404);
    // With the values it ran with, the viewer may follow it (it could have started that run).
    const aprilResult = await pollDone(adminJob, april);
    expect((await viewer.get(`/api/query_results/${aprilResult}?${april}`)).status).toBe(200);
    refused(await viewer.get(`/api/query_results/${aprilResult}?${march}`), 404);
  });

  it("serves cached results to viewers within the refresh period or the minimum age", async () => {
    const viewer = viewerWith(server, token);
    // A viewer asking for a fresh run gets the result of the last minute instead.
    await runResultId(viewer, plain.id, { max_age: 0 });
    const before = await storedResults();
    await runResultId(viewer, plain.id, { max_age: 0 });
    await runResultId(viewer, plain.id, { max_age: 0 });
    expect(await storedResults()).toBe(before);
    // Signed-in users still run when they ask to.
    await runResultId(admin, plain.id, { max_age: 0 });
    expect(await storedResults()).toBe(before + 1);

    // Ten minutes on: older than the minimum age, but within a scheduled query's hour.
    await runResultId(admin, scheduled.id, { max_age: 0 });
    const tenMinutesAgo = new Date(Date.now() - 600_000).toISOString();
    await server.ctx.database.db
      .updateTable("query_results")
      .set({ retrieved_at: tenMinutesAgo })
      .where("data_source_id", "=", shop)
      .execute();
    const aged = await storedResults();
    await runResultId(viewer, scheduled.id, { max_age: 0 });
    expect(await storedResults()).toBe(aged);
    await runResultId(viewer, plain.id, { max_age: 0 });
    expect(await storedResults()).toBe(aged + 1);
  });

  it("sends headers that let only public pages and their calls be framed", async () => {
    const viewer = viewerWith(server, token);
    const framable = [
      await new TestClient(server.url).get(`/api/dashboards/public/${token}`),
      await viewer.post(`/api/queries/${plain.id}/results`, {}),
      await viewer.get(`/api/queries/${plain.id}/results`),
      // The page itself (the web app, or 503 while it is not built).
      await new TestClient(server.url).get(`/public/dashboards/${token}`),
    ];
    for (const res of framable) {
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
      expect(res.headers.get("x-frame-options")).toBeNull();
    }
    for (const res of [
      await admin.get(`/api/dashboards/${board.id}`),
      await admin.get("/api/queries"),
      // Other pages, signed in or not, and the share key on any other page.
      await admin.get(`/dashboards/${board.id}`),
      await new TestClient(server.url).get("/login"),
      await viewer.get(`/api/queries/${plain.id}`),
      await viewer.get("/api/data_sources"),
    ]) {
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("deny");
    }
  });

  it("runs and reads nothing while public URLs are turned off", async () => {
    const viewer = viewerWith(server, token);
    const settings = (on: boolean) =>
      admin.post("/api/settings/organization", { disable_public_urls: on });
    expect((await settings(true)).status).toBe(200);
    try {
      const page = await viewer.get(`/api/dashboards/public/${token}`);
      expect(page.status).toBe(400);
      expect(page.body).toEqual({ message: "Public URLs are disabled." });
      refused(await viewer.post(`/api/queries/${plain.id}/results`, {}), 403, 404);
      refused(await viewer.get(`/api/queries/${plain.id}/results`), 403, 404);
    } finally {
      await settings(false);
    }
    expect((await viewer.get(`/api/queries/${plain.id}/results`)).status).toBe(200);
  });

  it("stops a withdrawn key at once on every route, jobs already started included", async () => {
    const viewer = viewerWith(server, token);
    const resultId = await runResultId(viewer, plain.id);
    const job = await server.ctx.execution.execute({
      orgId: 1,
      dataSourceId: shop,
      queryText: applyAutoLimit(plain.text, false),
      queryId: plain.id,
      userId: null,
      scheduled: false,
      maxAge: 0,
      noWait: true,
    });
    const jobId = job.kind === "job" ? job.job.id : "";
    expect((await viewer.get(`/api/jobs/${jobId}`)).status).toBe(200);

    expect((await admin.request("DELETE", `/api/dashboards/${board.id}/share`)).status).toBe(200);
    for (const [method, path] of [
      ["GET", `/api/dashboards/public/${token}`],
      ["POST", `/api/queries/${plain.id}/results`],
      ["GET", `/api/queries/${plain.id}/results`],
      ["GET", `/api/query_results/${resultId}`],
      ["GET", `/api/queries/${plain.id}/results/${resultId}.json`],
      ["GET", `/api/jobs/${jobId}`],
      ["GET", `/api/queries/${plain.id}/jobs/${jobId}`],
    ] as const) {
      refused(await viewer.request(method, path, method === "POST" ? { json: {} } : {}), 403, 404);
    }
    // The page itself still opens (no login redirect): it shows its not-found card.
    for (const address of [`/public/dashboards/${token}`, "/public/dashboards/wrong"]) {
      const page = await new TestClient(server.url).get(address);
      expect([200, 503], `${address}: ${page.status}`).toContain(page.status);
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors *");
    }
    // Shared again: a new key, the old one stays dead.
    const again = (await admin.post(`/api/dashboards/${board.id}/share`)).body.api_key;
    expect(again).not.toBe(token);
    refused(await viewer.get(`/api/dashboards/public/${token}`), 404);
    token = again;
  });
});

describe.each(DATABASES)("public dashboard rate limit on %s", (db) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(db, { SIGHTLINE_PUBLIC_RATE_LIMIT: "5" });
    const admin = await setUpAndLogin(server.url);
    const board = (await admin.post("/api/dashboards", { name: "Busy board" })).body;
    token = (await admin.post(`/api/dashboards/${board.id}/share`)).body.api_key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers a clear 429 to an address over the limit, and not to signed-in users", async () => {
    const viewer = new TestClient(server.url);
    for (let i = 0; i < 5; i++) {
      expect((await viewer.get(`/api/dashboards/public/${token}`)).status).toBe(200);
    }
    const over = await viewer.get(`/api/dashboards/public/${token}?api_key=${token}`);
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/public dashboard/i);
    expect(over.headers.get("retry-after")).toBeTruthy();
  });
});
