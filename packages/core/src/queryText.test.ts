import { describe, expect, it } from "vitest";
import {
  applyAutoLimit,
  isSelectWithoutLimit,
  normalizeForHash,
  normalizeSqlStatements,
  splitSqlStatements,
  rowBound,
} from "./queryText";

const limited = (text: string) => applyAutoLimit(text, true);

describe("applyAutoLimit (api-queries §6.3 test facts)", () => {
  it("appends LIMIT 1000 to a plain select", () => {
    expect(limited("SELECT 2")).toBe("SELECT 2 LIMIT 1000");
  });

  it("leaves a select with LIMIT or OFFSET alone", () => {
    expect(limited("SELECT * LIMIT 5")).toBe("SELECT * LIMIT 5");
    expect(limited("select * from t limit 5 offset 10")).toBe("select * from t limit 5 offset 10");
    expect(limited("select * from t offset 10")).toBe("select * from t offset 10");
  });

  it("limits the outer select when only a sub-select has a LIMIT", () => {
    expect(limited("SELECT * FROM (SELECT * FROM t LIMIT 5) AS x")).toBe(
      "SELECT * FROM (SELECT * FROM t LIMIT 5) AS x LIMIT 1000",
    );
  });

  it("does not touch CREATE TABLE ... AS (select ...)", () => {
    const text = "CREATE TABLE foo AS (SELECT * FROM bar)";
    expect(limited(text)).toBe(text);
  });

  it("does not touch garbage", () => {
    expect(limited("dfsjkl dsfkjl ;; ((")).toBe("dfsjkl dsfkjl;\n((");
    expect(limited("hello world")).toBe("hello world");
  });

  it("limits only the last of several statements", () => {
    expect(limited("select * from table1;\nselect * from table2")).toBe(
      "select * from table1;\nselect * from table2 LIMIT 1000",
    );
  });

  it("strips trailing comments and semicolons before appending", () => {
    expect(limited("select * from t; -- comment")).toBe("select * from t LIMIT 1000");
    expect(limited("select * from t; # comment")).toBe("select * from t LIMIT 1000");
    expect(limited("select * from t -- comment")).toBe("select * from t LIMIT 1000");
    expect(limited("select * from t /* c */")).toBe("select * from t LIMIT 1000");
    expect(limited("select 42;")).toBe("select 42 LIMIT 1000");
  });

  it("does not limit WITH queries or non-selects", () => {
    expect(limited("WITH a AS (SELECT 1) SELECT * FROM a")).toBe(
      "WITH a AS (SELECT 1) SELECT * FROM a",
    );
    expect(limited("update t set a = 1")).toBe("update t set a = 1");
    expect(limited("/* c */ select 1")).toBe("/* c */ select 1");
  });

  it("ignores keywords inside strings, identifiers and comments", () => {
    expect(limited("select 'limit 5' from t")).toBe("select 'limit 5' from t LIMIT 1000");
    expect(limited('select "limit" from t')).toBe('select "limit" from t LIMIT 1000');
    expect(limited("select t.limit from t")).toBe("select t.limit from t LIMIT 1000");
    expect(limited("select 1 -- limit 5\nfrom t")).toBe("select 1 -- limit 5\nfrom t LIMIT 1000");
  });

  it("normalises even when the flag is off", () => {
    expect(applyAutoLimit("select 1;  ", false)).toBe("select 1");
    expect(applyAutoLimit("  select 1; ; select 2; -- end", false)).toBe("select 1;\nselect 2");
    expect(applyAutoLimit("", true)).toBe("");
    expect(applyAutoLimit("-- only a comment", true)).toBe("");
  });

  it("accepts a custom limit", () => {
    expect(applyAutoLimit("select 1", true, 50)).toBe("select 1 LIMIT 50");
  });
});

describe("statement splitting", () => {
  it("keeps semicolons inside strings, quoted identifiers and dollar quotes", () => {
    expect(splitSqlStatements("select ';' as a; select 2")).toEqual([
      "select ';' as a",
      "select 2",
    ]);
    expect(splitSqlStatements("select 'it''s;'; select 2")).toEqual([
      "select 'it''s;'",
      "select 2",
    ]);
    expect(splitSqlStatements('select ";" from t')).toEqual(['select ";" from t']);
    expect(
      splitSqlStatements(
        "create function f() returns int as $$ select 1; $$ language sql; select 1",
      ),
    ).toEqual(["create function f() returns int as $$ select 1; $$ language sql", "select 1"]);
    expect(splitSqlStatements("select 1 /* ; */ + 1")).toEqual(["select 1 /* ; */ + 1"]);
  });

  it("keeps leading comments and inner text untouched", () => {
    expect(normalizeSqlStatements("-- title\nselect  1\n  from t;")).toBe(
      "-- title\nselect  1\n  from t",
    );
  });

  it("reports select-without-limit for single statements", () => {
    expect(isSelectWithoutLimit("select 1")).toBe(true);
    expect(isSelectWithoutLimit("SELECT * FROM t ORDER BY a DESC")).toBe(true);
    expect(isSelectWithoutLimit("SELECT * FROM t LIMIT 10")).toBe(false);
    expect(isSelectWithoutLimit("")).toBe(false);
  });
});

describe("rowBound", () => {
  const limit = (rows: number) => ({ kind: "limit", rows });
  const tableless = (statement: string) => ({ kind: "tableless", statement });

  it("reads the final top-level LIMIT of a single query", () => {
    expect(rowBound("SELECT * FROM t LIMIT 1000")).toEqual(limit(1000));
    expect(rowBound(limited("select * from t order by a"))).toEqual(limit(1000));
    expect(rowBound("/* Username: a */ SELECT 1 LIMIT 5;  -- done")).toEqual(limit(5));
    expect(rowBound("select * from t limit 10 offset 20")).toEqual(limit(10));
    expect(rowBound("WITH x AS (SELECT 1) SELECT * FROM x LIMIT 3")).toEqual(limit(3));
    expect(rowBound("FROM t LIMIT 7")).toEqual(limit(7));
    expect(rowBound("(SELECT a FROM t) LIMIT 2")).toEqual(limit(2));
    expect(rowBound("SELECT a FROM t UNION ALL SELECT b FROM u LIMIT 4")).toEqual(limit(4));
  });

  it("finds a SELECT that reads no table, ready for a LIMIT to be appended", () => {
    expect(rowBound("SELECT 1")).toEqual(tableless("SELECT 1"));
    expect(rowBound("/* Username: a */ select now();  -- comment")).toEqual(
      tableless("/* Username: a */ select now()"),
    );
    expect(rowBound("SELECT 1 UNION ALL SELECT 2")).toEqual(
      tableless("SELECT 1 UNION ALL SELECT 2"),
    );
    expect(rowBound("SELECT 'FROM x' AS a -- from y")).toEqual(tableless("SELECT 'FROM x' AS a"));
    expect(rowBound("SELECT (SELECT 1 LIMIT 1) AS a")).toEqual(
      tableless("SELECT (SELECT 1 LIMIT 1) AS a"),
    );
  });

  it("tells nothing when the text does not bound the rows", () => {
    for (const text of [
      "SELECT * FROM t",
      "SELECT * FROM (SELECT * FROM t LIMIT 5)",
      "SELECT (SELECT max(a) FROM t)",
      "SELECT * FROM t LIMIT 10 + 5",
      "SELECT * FROM t LIMIT 10%",
      "SELECT * FROM t LIMIT 10 PERCENT",
      "SELECT * FROM t LIMIT ALL",
      "SELECT * FROM t OFFSET 5",
      "SELECT 1 OFFSET 1",
      "SELECT * FROM t WHERE a = 'LIMIT 5'",
      "SELECT * FROM t -- LIMIT 5",
      "SELECT t.limit FROM t",
      "SELECT 1 LIMIT 1; SELECT * FROM t",
      "SELECT 1; SELECT 2",
      "WITH x AS (SELECT 1) SELECT 2",
      "VALUES (1), (2)",
      "CREATE TABLE x AS SELECT * FROM t LIMIT 5",
      "DESCRIBE SELECT * FROM t LIMIT 5",
      "PRAGMA version",
      "",
    ]) {
      expect(rowBound(text), text).toBeNull();
    }
  });
});

describe("normalizeForHash (api-queries §6.1)", () => {
  it("removes comments and all whitespace, keeping case", () => {
    expect(normalizeForHash("SELECT  1 /* a comment */\n\tFROM t")).toBe("SELECT1FROMt");
    expect(normalizeForHash("where x='Value'")).not.toBe(normalizeForHash("where x='value'"));
    expect(normalizeForHash("select 1")).toBe(normalizeForHash("select\n1"));
  });

  it("removes comments non-greedily and only within a line", () => {
    expect(normalizeForHash("a /* x */ b /* y */ c")).toBe("abc");
    expect(normalizeForHash("a /* x\n */ b")).toBe("a/*x*/b");
  });
});
