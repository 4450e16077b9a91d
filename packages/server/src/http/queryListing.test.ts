import { describe, expect, it } from "vitest";
import { filterAndOrder, readListArgs, searchRank, type Orderable } from "./queryListing";

const row = (id: number, name: string, query = "select 1", description: string | null = null) => ({
  id,
  name,
  description,
  query,
  tags: [],
});

describe("query search", () => {
  it("ranks name over id over description over query text, by word prefixes", () => {
    const r = row(42, "Revenue by Month", "SELECT sum(amount) FROM orders", "monthly totals");
    expect(searchRank(r, "revenue")).toBe(8);
    expect(searchRank(r, "rev mon")).toBe(18); // "mon" also begins "monthly"
    expect(searchRank(r, "42")).toBe(4);
    expect(searchRank(r, "totals")).toBe(2);
    expect(searchRank(r, "orders")).toBe(1);
    expect(searchRank(r, "month")).toBe(10); // name and description
    // Inside a word is not a prefix: no match, though the letters occur.
    expect(searchRank(r, "venue")).toBe(0);
    expect(searchRank(r, "nothing")).toBe(0);
  });

  it("applies or, negation and groups of negations alone", () => {
    const r = row(7, "Sales report");
    expect(searchRank(r, "sales -report")).toBe(0);
    expect(searchRank(r, "-missing")).toBe(1);
    expect(searchRank(r, "-sales")).toBe(0);
    expect(searchRank(r, "missing or sales")).toBe(8);
    expect(searchRank(r, "")).toBe(1);
  });

  it("matches case-insensitively, Greek final sigma included", () => {
    const r = row(1, "ΟΔΟΣ Σύνολο");
    expect(searchRank(r, "οδος")).toBe(8);
    expect(searchRank(r, "ΟΔΟΣ")).toBe(8);
    expect(searchRank(r, "σύν")).toBe(8);
  });

  it("lists only the rows that match, best first", () => {
    const rows: Orderable[] = [
      row(1, "Orders", "select * from orders"),
      row(2, "Customers", "select * from customers join orders using (id)"),
      row(3, "Products", "select * from products"),
    ].map((r) => ({
      ...r,
      created_at: "2026-01-01",
      schedule: null,
      runtime: null,
      retrieved_at: null,
      owner_name: null,
      starred_at: null,
    }));
    const found = filterAndOrder(rows, readListArgs({ q: "orders" }));
    expect(found.map((r) => r.id)).toEqual([1, 2]);
  });
});
