import Database from "../store/sqliteDriver.mjs";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteRunner } from "./sqlite";
import { idleSqliteProcessIds } from "./sqliteProcesses";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";

let dir: string;
let outside: string;
let ctx: ReturnType<typeof testContext>;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sightline-sqlite-"));
  outside = mkdtempSync(path.join(tmpdir(), "sightline-outside-"));
  const db = new Database(path.join(dir, "shop.db"));
  db.exec(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, active BOOLEAN,
                        added DATE, updated DATETIME, payload BLOB, big INTEGER);
    INSERT INTO items VALUES (1, 'pen', 1.5, 1, '2024-01-02', '2024-01-02 10:00:00', x'00ff', 9007199254740993);
    CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;
  `);
  db.close();
  new Database(path.join(outside, "secret.db")).exec("CREATE TABLE s (x)");
  symlinkSync(path.join(outside, "secret.db"), path.join(dir, "link.db"));
  mkdirSync(path.join(dir, "meta"));
  new Database(path.join(dir, "meta", "sightline.db")).exec("CREATE TABLE users (x)");
  writeFileSync(path.join(dir, "notes.txt"), "hello");
  ctx = testContext({ fileDataDir: dir, forbiddenPaths: [path.join(dir, "meta")] });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const shop = { dbpath: "shop.db" };

describe("sqlite runner", () => {
  it("returns every column type with JSON-safe values", async () => {
    const { columns, rows } = await runAll(
      sqliteRunner.run(
        shop,
        "SELECT id, name, price, active, added, updated, payload, big, 2.5 AS expr, NULL AS empty_value, id AS id FROM items",
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["id", "integer"],
      ["name", "string"],
      ["price", "float"],
      ["active", "boolean"],
      ["added", "date"],
      ["updated", "datetime"],
      ["payload", "string"],
      ["big", "integer"],
      ["expr", "float"],
      ["empty_value", null],
      ["id1", "integer"],
    ]);
    expect(rows).toEqual([
      [
        1,
        "pen",
        1.5,
        1,
        "2024-01-02",
        "2024-01-02 10:00:00",
        "00ff",
        "9007199254740993",
        2.5,
        null,
        1,
      ],
    ]);
  });

  it("types expression columns by SQLite's storage class, whole REAL values included", async () => {
    const { columns, rows } = await runAll(
      sqliteRunner.run(
        shop,
        `SELECT sum(v) AS total, 2490000.0 AS whole, 7 AS n, 'x' AS label, x'01' AS bytes
         FROM (SELECT 1245000.0 AS v UNION ALL SELECT 1245000.0)`,
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["total", "float"],
      ["whole", "float"],
      ["n", "integer"],
      ["label", "string"],
      ["bytes", "string"],
    ]);
    expect(rows).toEqual([[2490000, 2490000, 7, "x", "01"]]);
  });

  it("streams a 100k-row result in batches", async () => {
    const { rows, batches } = await runAll(
      sqliteRunner.run(
        shop,
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT x, 'row ' || x AS label FROM c",
        ctx,
      ),
    );
    expect(rows).toHaveLength(100_000);
    expect(batches).toBe(20);
    expect(rows[99_999]).toEqual([100_000, "row 100000"]);
  });

  it("reports the database's error message", async () => {
    await expect(sqliteRunner.run(shop, "SELECT * FROM nope", ctx)).rejects.toThrow(
      "no such table: nope",
    );
  });

  const endless =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
  const hundredThousand =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT x FROM c";

  it("cancellation stops a long query quickly", async () => {
    const { error, ms } = await timeRejection(
      sqliteRunner.run(shop, endless, { ...ctx, signal: abortAfter(300) }),
    );
    expect(error.message).toBe("Query cancelled by user.");
    expect(ms).toBeLessThan(2000);
  });

  it("stops a query at the time limit", async () => {
    const { error, ms } = await timeRejection(
      sqliteRunner.run(shop, endless, { ...ctx, timeoutMs: 300 }),
    );
    expect(error.message).toBe("Query exceeded the time limit of 0.3 seconds and was stopped.");
    expect(ms).toBeLessThan(2000);
  });

  it("read_only refuses writes", async () => {
    await expect(
      sqliteRunner.run({ ...shop, read_only: true }, "DELETE FROM items", ctx),
    ).rejects.toThrow("attempt to write a readonly database");
    const { rows } = await runAll(
      sqliteRunner.run({ ...shop, read_only: true }, "SELECT count(*) AS n FROM items", ctx),
    );
    expect(rows).toEqual([[1]]);
  });

  it("refuses files outside the allowed folder, symlinks out of it and Sightline's own files", async () => {
    await expect(
      sqliteRunner.run({ dbpath: path.join(outside, "secret.db") }, "SELECT 1", ctx),
    ).rejects.toThrow("Database file must be inside the allowed data folder");
    await expect(
      sqliteRunner.run({ dbpath: "../x/../../etc/passwd" }, "SELECT 1", ctx),
    ).rejects.toThrow();
    await expect(sqliteRunner.run({ dbpath: "link.db" }, "SELECT 1", ctx)).rejects.toThrow(
      "Database file must be inside the allowed data folder",
    );
    await expect(
      sqliteRunner.run({ dbpath: "meta/sightline.db" }, "SELECT 1", ctx),
    ).rejects.toThrow("This file belongs to Sightline itself and cannot be used as a data source.");
    await expect(sqliteRunner.run(shop, "SELECT 1", { ...ctx, fileDataDir: null })).rejects.toThrow(
      "File-based data sources are disabled",
    );
  });

  it("refuses ATTACH and VACUUM, which reach other files", async () => {
    await expect(
      sqliteRunner.run(shop, `/* x */ ATTACH '${path.join(outside, "secret.db")}' AS s`, ctx),
    ).rejects.toThrow("ATTACH is not allowed on SQLite data sources.");
    await expect(sqliteRunner.run(shop, "vacuum into '/tmp/copy.db'", ctx)).rejects.toThrow(
      "VACUUM is not allowed",
    );
    await expect(sqliteRunner.run(shop, "SELECT load_extension('x')", ctx)).rejects.toThrow();
  });

  it("a consumer that stops early ends the query", async () => {
    const run = await sqliteRunner.run(
      shop,
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
      ctx,
    );
    let seen = 0;
    for await (const batch of run.batches) {
      seen += batch.length;
      if (seen >= 10_000) break;
    }
    expect(seen).toBe(10_000);
  });

  it("reuses the process of a query that ended, never one that was stopped, and shares nothing", async () => {
    await runAll(sqliteRunner.run(shop, "SELECT 1", ctx));
    const [pid] = idleSqliteProcessIds().slice(-1);
    expect(pid).toBeGreaterThan(0);
    // A 100k-row result (several batches and credits), then a refused statement: still reused.
    expect((await runAll(sqliteRunner.run(shop, hundredThousand, ctx))).rows).toHaveLength(100_000);
    await expect(sqliteRunner.run(shop, "CREATE TEMP TABLE scratch (x)", ctx)).rejects.toThrow(
      "Query completed but it returned no data.",
    );
    expect(idleSqliteProcessIds()).toContain(pid);
    // The temp table went with its connection.
    await expect(sqliteRunner.run(shop, "SELECT * FROM temp.scratch", ctx)).rejects.toThrow(
      "no such table: temp.scratch",
    );

    const idleBefore = idleSqliteProcessIds();
    await timeRejection(sqliteRunner.run(shop, endless, { ...ctx, signal: abortAfter(100) }));
    const taken = idleBefore.filter((id) => !idleSqliteProcessIds().includes(id));
    expect(taken).toHaveLength(1);
    const gone = () => {
      try {
        process.kill(taken[0], 0);
        return false;
      } catch {
        return true;
      }
    };
    await expect.poll(gone, { timeout: 5000 }).toBe(true);
    expect((await runAll(sqliteRunner.run(shop, "SELECT 2 AS two", ctx))).rows).toEqual([[2]]);
  });

  it("tests the connection and lists the schema", async () => {
    await expect(sqliteRunner.test(shop, ctx)).resolves.toBeUndefined();
    await expect(sqliteRunner.test({ dbpath: "notes.txt" }, ctx)).rejects.toThrow(
      "file is not a database",
    );
    const schema = await sqliteRunner.getSchema(shop, ctx);
    expect(schema.map((t) => t.name)).toEqual(["cheap", "items"]);
    expect(schema[1].columns.slice(0, 2)).toEqual([
      { name: "id", type: "INTEGER" },
      { name: "name", type: "TEXT" },
    ]);
  });
});
