import { describe, expect, it } from "vitest";
import { schemaCompletions, tablesNamedIn } from "./QueryEditor";
import { emptySchemaText, filterSchema } from "./SchemaBrowser";
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
      "customers:class",
      "id:property",
      "total:property",
      "email:property",
    ]);
  });
});

describe("column completions follow the tables the text names", () => {
  const labels = (text: string) => schemaCompletions(schema, text).map((c) => c.label);

  it("offers the columns of the named tables only", () => {
    expect(labels("select  from customers")).toEqual(["orders", "customers", "id", "email"]);
    expect(labels("select * from ORDERS o join customers c on c.id = o.id")).toEqual([
      "orders",
      "customers",
      "id",
      "total",
      "email",
    ]);
  });

  it("offers every column while the text names no table", () => {
    expect(labels("select ")).toEqual(["orders", "customers", "id", "total", "email"]);
  });

  it("finds tables as whole words, and schema-qualified tables by either name", () => {
    const qualified = [{ name: "sales.orders", columns: [] }, ...schema];
    expect(tablesNamedIn("select * from orders_archive", schema)).toEqual([]);
    expect(tablesNamedIn("select * from sales.orders", qualified).map((t) => t.name)).toEqual([
      "sales.orders",
      "orders",
    ]);
    expect(tablesNamedIn("select * from orders", qualified).map((t) => t.name)).toEqual([
      "sales.orders",
      "orders",
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

describe("emptySchemaText", () => {
  it("explains that files by URL have no schema, and keeps the spec's text for the others", () => {
    expect(emptySchemaText("csv")).toMatch(/each query names its own file/);
    expect(emptySchemaText("excel")).toMatch(/url: /);
    expect(emptySchemaText("pg")).toBe("Schema is empty.");
    expect(emptySchemaText(undefined)).toBe("Schema is empty.");
  });
});
