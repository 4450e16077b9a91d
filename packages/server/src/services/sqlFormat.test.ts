import { describe, expect, it } from "vitest";
import { formatSql } from "./sqlFormat";

describe("formatSql", () => {
  it("formats like Redash's Format button", () => {
    expect(formatSql("select a,b,c FROM foobar Where x=1 and y=2;").split("\n")).toEqual([
      "SELECT a,",
      "       b,",
      "       c",
      "FROM foobar",
      "WHERE x=1",
      "  AND y=2;",
    ]);
  });

  it("keeps template tags and returns unparsable text unchanged", () => {
    expect(formatSql("select {{ a }} from t")).toBe("SELECT {{ a }}\nFROM t");
    expect(formatSql("select 1 where {{#x}} a {{/x}}")).toContain("{{#x}}");
    expect(formatSql("this is ( not sql")).toBeTypeOf("string");
  });

  it("indents nested selects under their clause", () => {
    const out = formatSql("select a from t where id in (select id from u where b=1) group by a");
    expect(out).toContain("GROUP BY a");
    expect(out.split("\n")[0]).toBe("SELECT a");
  });
});
