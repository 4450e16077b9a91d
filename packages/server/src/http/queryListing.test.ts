import { describe, expect, it } from "vitest";
import {
  filterAndOrder,
  hasWordStartingWith,
  readListArgs,
  searchRank,
  type Orderable,
} from "./queryListing";

const row = (id: number, name: string, query = "select 1", description: string | null = null) => ({
  id,
  name,
  description,
  query,
  tags: [],
});

describe("query search", () => {
  it("finds word prefixes exactly as splitting the text into words does", () => {
    // The former way: split the lowercased text into words, and look for one beginning with w.
    const split = (text: string) =>
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}_]+/u)
        .filter(Boolean);
    const bySplitting = (text: string, w: string) => split(text).some((c) => c.startsWith(w));
    // Letters, digits, separators, Greek sigma, a letter and an emoji outside the BMP, a
    // combining accent and lone surrogates.
    const pool = [
      "a",
      "b",
      "É",
      "é",
      "1",
      "_",
      " ",
      ".",
      "-",
      "Σ",
      "σ",
      "\u{1D400}",
      "\u{1F600}",
      "\u0301",
      "\uD835",
      "\uDC00",
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      // The high bits: the low ones of this generator repeat every few steps.
      return Math.floor(seed / 65536) % n;
    };
    const text = (length: number) =>
      Array.from({ length }, () => pool[random(pool.length)]).join("");
    let compared = 0;
    for (let i = 0; i < 4000; i += 1) {
      const haystack = text(random(12));
      for (const w of split(text(1 + random(4)))) {
        expect(hasWordStartingWith(haystack.toLowerCase(), w), JSON.stringify([haystack, w])).toBe(
          bySplitting(haystack, w),
        );
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

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
