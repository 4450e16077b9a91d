import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutionService, jobProcessor, MemoryQueue, principalOf } from "../execution";
import { resolvePrincipal } from "../execution/principal";
import { MAX_CHECKED_QUERIES, principalResults } from "../execution/readableResults";
import { openTestStore, type TestStore } from "../execution/testSupport";
import { userIdentity } from "../auth/identity";
import type { Query } from "../store/queries";
import type { User } from "../store/users";
import { referencedTables, resultsRunner } from "./results";
import { runAll, testContext } from "./testSupport";
import {
  ResultRefusedError,
  type Cell,
  type ReadableResults,
  type ResultColumn,
  type RunPrincipal,
} from "./types";

let store: TestStore;
let resultsSourceId: number;
let orders: Query;
let customers: Query;
let secret: Query;
let empty: Query;
let outsider: User;

const col = (name: string, type: ResultColumn["type"]): ResultColumn => ({
  name,
  friendly_name: name,
  type,
});

async function principal(user: User): Promise<RunPrincipal> {
  return principalOf(await userIdentity(store.database.db, user, false))!;
}

function run(text: string, who: RunPrincipal | undefined) {
  return runAll(
    resultsRunner.run(
      {},
      text,
      testContext({ results: principalResults(store.database.db, who ?? null) }),
    ),
  );
}

beforeAll(async () => {
  store = await openTestStore();
  const sqlite = await store.addDataSource("sqlite", { dbpath: ":memory:" });
  resultsSourceId = await store.addDataSource("results", {});
  orders = await store.addQuery({ dataSourceId: sqlite, text: "SELECT * FROM orders" });
  await store.storeResult(
    orders,
    [col("customer_id", "integer"), col("amount", "float"), col("placed_at", "datetime")],
    [
      [1, 10.5, "2024-01-02T10:00:00"],
      [1, 4.5, "2024-01-03T11:30:00"],
      [2, 7, "2024-02-01T09:00:00"],
    ],
  );
  customers = await store.addQuery({ dataSourceId: sqlite, text: "SELECT * FROM customers" });
  await store.storeResult(
    customers,
    [col("id", "integer"), col("name", "string"), col("vip", "boolean")],
    [
      [1, "Ada", true],
      [2, "Grace", false],
      [3, "Linus", null],
    ],
  );
  // A data source only the "finance" group may use.
  const finance = await store.addGroup("finance");
  const financeSource = await store.addDataSource("sqlite", { dbpath: ":memory:" }, finance);
  secret = await store.addQuery({ dataSourceId: financeSource, text: "SELECT 'salaries'" });
  await store.storeResult(secret, [col("x", "string")], [["salaries"]]);
  empty = await store.addQuery({ dataSourceId: sqlite, text: "SELECT 'never run'" });
  outsider = await store.addUser([store.defaultGroupId]);
});

afterAll(() => store.close());

describe("Query Results runner", () => {
  it("finds query tables after FROM and JOIN, ignoring comments and strings", () => {
    expect(
      referencedTables(
        "/* from query_9 */ SELECT 'from query_8' FROM query_1 q JOIN cached_query_2 c ON true -- join query_7\n LEFT JOIN Query_1 x ON true",
      ),
    ).toEqual([
      { table: "query_1", queryId: 1 },
      { table: "cached_query_2", queryId: 2 },
    ]);
  });

  it("reads only the results its run context hands it, asking for each referenced query once", async () => {
    // No metadata store at all: what the runner reads, and what it is refused, is the context's.
    const asked: number[][] = [];
    const results: ReadableResults = {
      async latest(ids) {
        asked.push(ids);
        if (ids.includes(7)) throw new ResultRefusedError("You do not have access to query id 7.");
        const rows: Cell[][] = [
          [1, "a"],
          [2, "b"],
        ];
        const stored = {
          columns: [col("n", "integer"), col("s", "string")],
          rows: async function* () {
            yield rows;
          },
        };
        return new Map(ids.map((id) => [id, id === 5 ? null : stored]));
      },
    };
    const context = () => testContext({ results });
    const { rows } = await runAll(
      resultsRunner.run(
        {},
        "SELECT a.n + b.n, a.s FROM query_3 a JOIN cached_query_4 b USING (n) ORDER BY 1",
        context(),
      ),
    );
    expect(rows).toEqual([
      [2, "a"],
      [4, "b"],
    ]);
    expect(asked).toEqual([[3, 4]]);
    await expect(runAll(resultsRunner.run({}, "SELECT * FROM query_5", context()))).rejects.toThrow(
      "No cached result available for query 5.",
    );
    await expect(runAll(resultsRunner.run({}, "SELECT * FROM query_7", context()))).rejects.toThrow(
      "You do not have access to query id 7.",
    );
    expect(await resultsRunner.authorize!("SELECT * FROM query_7", results)).toBe(
      "You do not have access to query id 7.",
    );
    expect(await resultsRunner.authorize!("SELECT * FROM query_3", results)).toBe(null);
  });

  it("joins other queries' stored results with their types", async () => {
    const { columns, rows } = await run(
      `SELECT c.name, sum(o.amount) AS total, max(o.placed_at) AS last_order, c.vip
       FROM query_${orders.id} o JOIN cached_query_${customers.id} c ON c.id = o.customer_id
       GROUP BY c.name, c.vip ORDER BY c.name`,
      await principal(store.admin),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["name", "string"],
      ["total", "float"],
      ["last_order", "datetime"],
      ["vip", "boolean"],
    ]);
    expect(rows).toEqual([
      ["Ada", 15, "2024-01-03T11:30:00", true],
      ["Grace", 7, "2024-02-01T09:00:00", false],
    ]);
  });

  it("keeps integer columns as integers and NULLs as nulls", async () => {
    const { columns, rows } = await run(
      `SELECT id, vip FROM query_${customers.id} WHERE id > 1 ORDER BY id`,
      await principal(outsider),
    );
    expect(columns.map((c) => c.type)).toEqual(["integer", "boolean"]);
    expect(rows).toEqual([
      [2, false],
      [3, null],
    ]);
  });

  it("fails with Redash's messages for missing queries, foreign access and missing results", async () => {
    const user = await principal(outsider);
    await expect(run("SELECT * FROM query_999999", user)).rejects.toThrow(
      "Query id 999999 not found.",
    );
    await expect(run(`SELECT * FROM query_${secret.id}`, user)).rejects.toThrow(
      `You do not have access to query id ${secret.id}.`,
    );
    await expect(run(`SELECT * FROM query_${empty.id}`, user)).rejects.toThrow(
      `No cached result available for query ${empty.id}.`,
    );
    // No principal: nobody to check access for.
    await expect(run(`SELECT * FROM query_${orders.id}`, undefined)).rejects.toThrow(
      `You do not have access to query id ${orders.id}.`,
    );
    // The admin sees the finance query.
    const { rows } = await run(`SELECT * FROM query_${secret.id}`, await principal(store.admin));
    expect(rows).toEqual([["salaries"]]);
  });

  it("a query API key sees only what its own key opens", async () => {
    const key = await resolvePrincipal(store.database.db, {
      orgId: store.orgId,
      userId: null,
      queryId: orders.id,
      scheduled: false,
    });
    expect(key?.apiKey?.object).toEqual({ type: "queries", id: orders.id });
    await expect(run(`SELECT count(*) FROM query_${orders.id}`, key!)).resolves.toMatchObject({
      rows: [[3]],
    });
    await expect(run(`SELECT * FROM query_${customers.id}`, key!)).rejects.toThrow(
      `You do not have access to query id ${customers.id}.`,
    );
  });

  it("follows Query Results queries into the queries their stored results read", async () => {
    const user = await principal(outsider);
    const authorize = (text: string, who: RunPrincipal | null) =>
      resultsRunner.authorize!(text, principalResults(store.database.db, who));
    // A Query Results query the outsider may see, whose stored result holds the finance rows.
    const overSecret = await store.addQuery({
      dataSourceId: resultsSourceId,
      text: `SELECT x FROM query_${secret.id}`,
    });
    await store.storeResult(overSecret, [col("x", "string")], [["salaries"]]);
    const chained = `SELECT * FROM query_${overSecret.id}`;
    expect(await authorize(chained, user)).toBe(`You do not have access to query id ${secret.id}.`);
    await expect(run(chained, user)).rejects.toThrow(
      `You do not have access to query id ${secret.id}.`,
    );
    const twice = await store.addQuery({ dataSourceId: resultsSourceId, text: chained });
    await store.storeResult(twice, [col("x", "string")], [["salaries"]]);
    expect(await authorize(`SELECT * FROM query_${twice.id}`, user)).toBe(
      `You do not have access to query id ${secret.id}.`,
    );
    expect(await authorize(`SELECT * FROM query_${twice.id}`, await principal(store.admin))).toBe(
      null,
    );
    await expect(run(chained, await principal(store.admin))).resolves.toMatchObject({
      rows: [["salaries"]],
    });

    // Results of other runners are not followed: their text names no query tables.
    const plain = await store.addQuery({
      dataSourceId: orders.data_source_id!,
      text: `SELECT 'not a reference' FROM query_${secret.id}`,
    });
    await store.storeResult(plain, [col("x", "string")], [["ok"]]);
    expect(await authorize(`SELECT * FROM query_${plain.id}`, user)).toBe(null);
  });

  it("ends on cycles between Query Results queries", async () => {
    const user = await principal(outsider);
    const a = await store.addQuery({ dataSourceId: resultsSourceId, text: "SELECT 1 AS x" });
    const b = await store.addQuery({
      dataSourceId: resultsSourceId,
      text: `SELECT * FROM query_${a.id}`,
    });
    await store.storeResult(b, [col("x", "integer")], [[1]]);
    // a's stored result read b (its text was edited and run again), and b's read a.
    a.query = `SELECT x FROM query_${b.id} JOIN query_${a.id} USING (x)`;
    await store.storeResult(a, [col("x", "integer")], [[1]]);
    const authorize = (text: string) =>
      resultsRunner.authorize!(text, principalResults(store.database.db, user));
    expect(await authorize(`SELECT * FROM query_${a.id}`)).toBe(null);
    // The same cycle reaching the finance query is refused.
    const c = await store.addQuery({
      dataSourceId: resultsSourceId,
      text: `SELECT * FROM query_${a.id} JOIN query_${secret.id} USING (x)`,
    });
    await store.storeResult(c, [col("x", "integer")], [[1]]);
    b.query = `SELECT * FROM query_${c.id}`;
    await store.storeResult(b, [col("x", "integer")], [[1]]);
    expect(await authorize(`SELECT * FROM query_${a.id}`)).toBe(
      `You do not have access to query id ${secret.id}.`,
    );
  });

  it("refuses a chain longer than the bound rather than walking it", async () => {
    const user = await principal(outsider);
    let previous = orders;
    for (let i = 0; i < MAX_CHECKED_QUERIES; i += 1) {
      const next = await store.addQuery({
        dataSourceId: resultsSourceId,
        text: `SELECT * FROM query_${previous.id}`,
      });
      await store.storeResult(next, [col("x", "integer")], [[1]]);
      previous = next;
    }
    const problem = await resultsRunner.authorize!(
      `SELECT * FROM query_${previous.id}`,
      principalResults(store.database.db, user),
    );
    expect(problem).toBe(
      `Query results nest too deeply (more than ${MAX_CHECKED_QUERIES} queries).`,
    );
  });

  it("checks a latest result stored from another data source than its query's", async () => {
    const db = store.database.db;
    const finance = (await db
      .selectFrom("queries")
      .select("data_source_id")
      .where("id", "=", secret.id)
      .executeTakeFirstOrThrow())!.data_source_id!;
    const moved = await store.addQuery({ dataSourceId: finance, text: "SELECT 'moved'" });
    await store.storeResult(moved, [col("x", "string")], [["salaries"]]);
    // Moved to a data source the outsider may use; its latest result is still the finance one.
    await db
      .updateTable("queries")
      .set({ data_source_id: orders.data_source_id })
      .where("id", "=", moved.id)
      .execute();
    await expect(run(`SELECT * FROM query_${moved.id}`, await principal(outsider))).rejects.toThrow(
      `You do not have access to query id ${moved.id}.`,
    );
  });

  it("cannot read files or change its own settings", async () => {
    const admin = await principal(store.admin);
    await expect(run("SELECT * FROM read_csv('/etc/passwd')", admin)).rejects.toThrow(
      /disabled|Permission|not allowed/i,
    );
    await expect(run("SET enable_external_access = true", admin)).rejects.toThrow();
    await expect(run("ATTACH '/tmp/x.duckdb' AS x", admin)).rejects.toThrow();
  });

  it("has no options and no schema", async () => {
    expect(resultsRunner.configurationSchema.properties).toEqual({});
    await expect(resultsRunner.test({}, testContext())).resolves.toBeUndefined();
    await expect(resultsRunner.getSchema({}, testContext())).rejects.toThrow(/schema/);
  });

  it("runs through the execution engine: a failed job, and no cached result for the unauthorised", async () => {
    const db = store.database.db;
    const backend = new MemoryQueue();
    await backend.startWorker(
      jobProcessor({
        db,
        config: store.config,
        keys: store.keys,
        limits: store.config.resultLimits,
      }),
      1,
    );
    const service = createExecutionService({ db, backend, waitMs: 5000 });
    try {
      const base = {
        orgId: store.orgId,
        dataSourceId: resultsSourceId,
        queryId: null,
        scheduled: false,
        maxAge: -1,
      };
      // A job whose principal lost nothing but whose input has no result: fails in the worker.
      const failed = await service.execute({
        ...base,
        queryText: `SELECT * FROM query_${empty.id}`,
        userId: store.admin.id,
      });
      expect(failed).toMatchObject({
        kind: "job",
        job: { status: 4, error: `No cached result available for query ${empty.id}.` },
      });
      // The admin's run is stored; the outsider asking for the same text is refused, not served it.
      const text = `SELECT x FROM query_${secret.id}`;
      const ok = await service.execute({ ...base, queryText: text, userId: store.admin.id });
      expect(ok.kind).toBe("result");
      await expect(
        service.execute({
          ...base,
          queryText: text,
          userId: outsider.id,
          principal: await principal(outsider),
        }),
      ).rejects.toMatchObject({
        statusCode: 403,
        error: `You do not have access to query id ${secret.id}.`,
      });
    } finally {
      await backend.close();
    }
  });
});
