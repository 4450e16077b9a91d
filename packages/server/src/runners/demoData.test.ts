import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDemoDatabase } from "./demoData";

const dir = mkdtempSync(path.join(tmpdir(), "sightline-demo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("demo data", () => {
  it("creates a realistic shop in a DuckDB file", { timeout: 60_000 }, async () => {
    const file = path.join(dir, "demo.duckdb");
    const started = Date.now();
    await createDemoDatabase(file);
    const elapsed = Date.now() - started;

    const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    const value = async (sql: string) => (await (await connection.run(sql)).getRows())[0];
    try {
      expect(await value("SELECT count(*) FROM customers")).toEqual([50_000n]);
      expect(await value("SELECT count(*) FROM products")).toEqual([500n]);
      expect(await value("SELECT count(*) FROM orders")).toEqual([400_000n]);
      const [items] = await value("SELECT count(*) FROM order_items");
      expect(Number(items)).toBeGreaterThan(1_000_000);
      expect(
        await value(
          "SELECT count(DISTINCT country) > 10, count(DISTINCT city) > 20 FROM customers",
        ),
      ).toEqual([true, true]);
      expect(
        await value(
          "SELECT count(DISTINCT status), count(DISTINCT category) FROM orders, (SELECT DISTINCT category FROM products)",
        ),
      ).toEqual([5n, 8n]);
      // Orders span the last two years and never precede the customer's signup.
      expect(
        await value(`SELECT min(ordered_at) >= now()::TIMESTAMP - INTERVAL 731 DAY, max(ordered_at) <= now()::TIMESTAMP,
                            count(*) FILTER (WHERE o.ordered_at < c.signup_date) FROM orders o JOIN customers c ON c.id = o.customer_id`),
      ).toEqual([true, true, 0n]);
      expect(await value("SELECT count(*) FROM order_items WHERE unit_price IS NULL")).toEqual([
        0n,
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    console.log(`demo database created in ${elapsed} ms`);
    expect(elapsed).toBeLessThan(30_000);
  });
});
