// The schema browser's reads of the PostgreSQL (and its family), MySQL (and its family) and Redis
// runners end at their time and say what timed out where, against a server that accepts the
// connection and never answers; a cancel ends them at once. ClickHouse, Prometheus and InfluxDB
// are checked in their own tests.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlRunner } from "./mysql";
import { mariadbRunner } from "./mysqlFamily";
import { pgRunner } from "./pg";
import { redshiftRunner } from "./pgFamily";
import { redisRunner } from "./redis";
import { testContext } from "./testSupport";

const silent = net.createServer((socket) => {
  open += 1;
  socket.on("close", () => (open -= 1));
  socket.on("error", () => undefined);
  socket.resume();
});
let open = 0;
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  port = (silent.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => silent.close(resolve));
});

const ctx = (timeoutMs = 1500, signal = new AbortController().signal) =>
  testContext({ timeoutMs, signal });

describe("catalog reads that time out", () => {
  it("PostgreSQL names the catalog it was reading and the server", async () => {
    const options = { host: "127.0.0.1", port, dbname: "shop", sslmode: "disable" };
    const where = `from PostgreSQL at 127.0.0.1:${port}.`;
    await expect(pgRunner.getSchema(options, ctx())).rejects.toThrow(
      `Timed out after 1.5 s while reading the tables and columns (pg_attribute) ${where}`,
    );
    await expect(pgRunner.listTables!(options, "sales", ctx())).rejects.toThrow(
      `Timed out after 1.5 s while reading the tables of schema "sales" (pg_class) ${where}`,
    );
    await expect(pgRunner.listColumns!(options, "sales", "orders", ctx())).rejects.toThrow(
      `while reading the columns of "sales.orders" (pg_attribute) ${where}`,
    );
    await expect(redshiftRunner.getSchema(options, ctx())).rejects.toThrow(
      `while reading the tables and columns (svv_columns) ${where}`,
    );
    await expect.poll(() => open).toBe(0);
  });

  it("MySQL names the catalog it was reading and the server, and closes the connection", async () => {
    const options = { host: "127.0.0.1", port, db: "shop" };
    const where = `from the MySQL server at 127.0.0.1:${port}.`;
    await expect(mysqlRunner.getSchema(options, ctx())).rejects.toThrow(
      `Timed out after 1.5 s while reading the tables and columns (information_schema.columns) ${where}`,
    );
    await expect(mysqlRunner.listDatabases!(options, ctx())).rejects.toThrow(
      `while reading the databases (information_schema.schemata) ${where}`,
    );
    await expect(mariadbRunner.listTables!(options, "shop", ctx())).rejects.toThrow(
      `while reading the tables of database \`shop\` (information_schema.tables)`,
    );
    await expect.poll(() => open).toBe(0);
  });

  it("Redis names the keys it was reading", async () => {
    await expect(redisRunner.getSchema({ host: "127.0.0.1", port }, ctx())).rejects.toThrow(
      `Timed out after 1.5 s while reading the keys of database 0 (SCAN, TYPE) from Redis at 127.0.0.1:${port}.`,
    );
  });

  it("a cancel ends a MySQL schema read at once, with the cancel's reason", async () => {
    const controller = new AbortController();
    const reading = mysqlRunner.getSchema(
      { host: "127.0.0.1", port },
      ctx(60_000, controller.signal),
    );
    await expect.poll(() => open).toBe(1);
    controller.abort(new Error("cancelled"));
    await expect(reading).rejects.toThrow("cancelled");
    await expect.poll(() => open).toBe(0);
  });
});
