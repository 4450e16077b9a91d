import { describe, expect, it } from "vitest";
import { schemaCompletions } from "./QueryEditor";
import { filterSchema } from "./SchemaBrowser";
import { hasLazySchema, initialDatabase } from "./loadSchema";

const schema = [
  { name: "orders", columns: [{ name: "id", type: "INTEGER" }, { name: "total" }] },
  { name: "customers", columns: [{ name: "id" }, { name: "email" }] },
];

describe("schema helpers", () => {
  it("searches table and column names, case-insensitively", () => {
    expect(filterSchema(schema, "ORD").map((t) => t.name)).toEqual(["orders"]);
    expect(filterSchema(schema, "email").map((t) => t.name)).toEqual(["customers"]);
    expect(filterSchema(schema, " ")).toHaveLength(2);
  });

  it("completes each table, and each column name once", () => {
    const labels = schemaCompletions(schema).map((c) => `${c.label}:${c.type}`);
    expect(labels).toEqual([
      "orders:class",
      "id:property",
      "total:property",
      "customers:class",
      "email:property",
    ]);
  });
});

describe("lazy schema helpers", () => {
  it("loads lazily only for sources that list databases or schemas", () => {
    expect(["pg", "mysql", "databricks"].map(hasLazySchema)).toEqual([true, true, true]);
    expect(hasLazySchema("duckdb")).toBe(false);
    expect(hasLazySchema(undefined)).toBe(false);
  });

  it("shows the remembered database, else default, else public, else the first", () => {
    expect(initialDatabase(["a", "default", "sales"], "sales")).toBe("sales");
    expect(initialDatabase(["a", "default"], "gone")).toBe("default");
    expect(initialDatabase(["a", "public"], null)).toBe("public");
    expect(initialDatabase(["b", "a"], null)).toBe("b");
    expect(initialDatabase([], "x")).toBeNull();
  });
});
