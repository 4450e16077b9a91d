import { describe, expect, it } from "vitest";
import { queryHashSource } from "./queryHash";

const sql = { supportsAutoLimit: true };
const other = { supportsAutoLimit: false };

describe("queryHashSource (api-queries §6.2 model facts)", () => {
  it("auto-limit changes the hash on SQL sources only", () => {
    const off = queryHashSource({ text: "SELECT 1", runner: sql });
    const on = queryHashSource({ text: "SELECT 1", runner: sql, applyAutoLimit: true });
    expect(on).not.toBe(off);
    expect(on).toBe("SELECT1LIMIT1000");
    expect(queryHashSource({ text: "SELECT 1", runner: other, applyAutoLimit: true })).toBe(
      queryHashSource({ text: "SELECT 1", runner: other }),
    );
  });

  it("renders saved defaults", () => {
    const plain = queryHashSource({ text: "SELECT {{num}}", runner: sql });
    const withParam = queryHashSource({
      text: "SELECT {{num}}",
      runner: sql,
      parameters: [{ name: "num", type: "number", value: 5 }],
    });
    expect(withParam).not.toBe(plain);
    expect(withParam).toBe("SELECT5");
  });

  it("uses the raw text when saved defaults are invalid", () => {
    expect(
      queryHashSource({
        text: "SELECT {{num}}",
        runner: sql,
        parameters: [{ name: "num", type: "number", value: "abc" }],
      }),
    ).toBe("SELECT{{num}}");
  });

  it("uses the text as is without a data source", () => {
    expect(queryHashSource({ text: "SELECT 1; -- x", runner: null, applyAutoLimit: true })).toBe(
      "SELECT1;--x",
    );
  });
});
