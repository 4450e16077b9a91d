import { Redis } from "ioredis";
import mysql from "mysql2/promise";
import pg from "pg";

/** Addresses of the real services tests use, from the environment with the machine's defaults. */
export const TEST_PG_URL =
  process.env.SIGHTLINE_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const TEST_MYSQL_URL =
  process.env.SIGHTLINE_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
export const TEST_REDIS_URL = process.env.SIGHTLINE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Under CI a missing service fails the run; on a developer machine its tests are skipped. */
export const REQUIRE_SERVICES = process.env.CI === "true";

let pgAvailable: Promise<boolean> | null = null;

export function postgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (err) {
      if (REQUIRE_SERVICES) {
        throw new Error(`PostgreSQL is required under CI but unreachable at ${TEST_PG_URL}`, {
          cause: err,
        });
      }
      return false;
    }
  })();
  return pgAvailable;
}

let mysqlReachable: Promise<boolean> | null = null;

/** The machine's MariaDB (MySQL protocol), for the MySQL family's tests. */
export function mysqlAvailable(): Promise<boolean> {
  mysqlReachable ??= (async () => {
    try {
      await (await mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 3000 })).end();
      return true;
    } catch (err) {
      if (REQUIRE_SERVICES) {
        throw new Error(`MariaDB is required under CI but unreachable at ${TEST_MYSQL_URL}`, {
          cause: err,
        });
      }
      return false;
    }
  })();
  return mysqlReachable;
}

let redisReachable: Promise<boolean> | null = null;

export function redisAvailable(): Promise<boolean> {
  redisReachable ??= (async () => {
    const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === "PONG";
    } catch (err) {
      if (REQUIRE_SERVICES) {
        throw new Error(`Redis is required under CI but unreachable at ${TEST_REDIS_URL}`, {
          cause: err,
        });
      }
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return redisReachable;
}

/** Leaves nothing behind in the shared Redis: deletes every key under a test's prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}

export function randomName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** The metadata databases API suites run against: SQLite always, PostgreSQL when reachable (always under CI). */
export async function metadataDatabases(): Promise<("sqlite" | "postgres")[]> {
  return (await postgresAvailable()) ? ["sqlite", "postgres"] : ["sqlite"];
}

/**
 * A database beside the test database for PostgreSQL data sources of servers whose metadata is in
 * the test database (no data source may read the metadata database). Created on first use.
 */
export async function pgSourceDatabaseUrl(): Promise<string> {
  const url = new URL(TEST_PG_URL);
  const name = `${url.pathname.slice(1)}_sources`;
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    // Created already, maybe by another test file at the same moment.
    if (!["42P04", "23505"].includes((error as { code?: string }).code ?? "")) throw error;
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

/** A login role on the test server that is not a superuser (see plainPgRole). */
export const TEST_PG_PLAIN_ROLE = "sightline_test_plain";

/**
 * The plain role's name, created on first use: PostgreSQL data sources of servers whose metadata
 * is on the test server connect with it, since a superuser there could reach the metadata
 * database (dblink, pg_read_file) and is refused.
 */
export async function plainPgRole(): Promise<string> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE ROLE ${TEST_PG_PLAIN_ROLE} LOGIN`);
  } catch (error) {
    // Made already, maybe by another test file at the same moment.
    if (!["42710", "23505"].includes((error as { code?: string }).code ?? "")) throw error;
  } finally {
    await client.end();
  }
  return TEST_PG_PLAIN_ROLE;
}
