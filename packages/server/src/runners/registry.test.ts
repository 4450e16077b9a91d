import { describe, expect, it } from "vitest";
import { getRunner, listRunners } from "./registry";

describe("runner registry", () => {
  it("registers every type under its Redash identifier, sorted by name", () => {
    expect(listRunners().map((r) => [r.type, r.name])).toEqual([
      ["clickhouse", "ClickHouse"],
      ["cockroach", "CockroachDB"],
      ["csv", "CSV"],
      ["duckdb", "DuckDB"],
      ["excel", "Excel"],
      ["influxdb", "InfluxDB"],
      ["json", "JSON"],
      ["mariadb", "MariaDB"],
      ["mysql", "MySQL"],
      ["rds_mysql", "MySQL (Amazon RDS)"],
      ["pg", "PostgreSQL"],
      ["prometheus", "Prometheus"],
      ["results", "Query Results"],
      ["redis", "Redis"],
      ["redshift", "Redshift"],
      ["sqlite", "SQLite"],
      ["tidb", "TiDB"],
      ["timescaledb", "TimescaleDB"],
      ["uploads", "Uploaded files"],
    ]);
    expect(getRunner("nope")).toBeUndefined();
  });

  it("declares valid configuration schemas", () => {
    for (const runner of listRunners()) {
      const {
        properties,
        required = [],
        secret = [],
        order = [],
        extra_options = [],
      } = runner.configurationSchema;
      for (const key of [...required, ...secret, ...order, ...extra_options]) {
        expect(properties, `${runner.type}.${key}`).toHaveProperty(key);
      }
    }
    expect(getRunner("pg")?.configurationSchema.required).toEqual(["dbname"]);
    expect(getRunner("pg")?.configurationSchema.secret).toContain("password");
    expect(getRunner("mysql")?.configurationSchema.secret).toEqual(["passwd"]);
    expect(getRunner("json")?.supportsAutoLimit).toBe(false);
    expect(getRunner("sqlite")?.supportsAutoLimit).toBe(true);
  });
});
