// An InfluxDB 1.x server for tests: Debian's influxd started on 127.0.0.1 on free ports with a
// temp config (meta, data and WAL in a temp folder, reporting off, auth on). It has an admin and a
// user who may only read TEST_INFLUX_DATABASE.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startProcess } from "./processes";
import { installedBinary, startServerProcess } from "./serverProcess";
import { REQUIRE_SERVICES } from "./services";

export interface TestInflux {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The admin (all privileges). */
  admin: { user: string; password: string };
  /** A user with READ on TEST_INFLUX_DATABASE only. */
  reader: { user: string; password: string };
  /** Runs InfluxQL as the admin (POST, so writes too). */
  exec(query: string, database?: string): Promise<unknown>;
  /** Writes line protocol into a database as the admin (nanosecond timestamps). */
  write(database: string, lines: string): Promise<void>;
  stop(): Promise<void>;
}

export const TEST_INFLUX_DATABASE = "sightline_test";
const ADMIN = { user: "admin", password: "admin pass" };
const READER = { user: "reader", password: "r3ad'er" };

function config(dir: string, httpPort: number, bindPort: number): string {
  return `reporting-disabled = true
bind-address = "127.0.0.1:${bindPort}"
[meta]
  dir = "${dir}/meta"
[data]
  dir = "${dir}/data"
  wal-dir = "${dir}/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:${httpPort}"
  auth-enabled = true
  log-enabled = false
[continuous_queries]
  enabled = false
[subscriber]
  enabled = false
`;
}

function authorization({ user, password }: { user: string; password: string }): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

async function ping(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/ping`, { signal: AbortSignal.timeout(2000) })).status === 204;
  } catch {
    return false;
  }
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * Starts InfluxDB for a test file, or null when influxd is not installed (then its tests are
 * skipped; under CI=true that is a failure).
 */
export async function startTestInflux(): Promise<TestInflux | null> {
  const binary = installedBinary("influxd");
  if (!binary) {
    if (REQUIRE_SERVICES)
      throw new Error("InfluxDB is required under CI but influxd is not installed");
    return null;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "sightline-influxdb-"));
  const httpPort = await freePort();
  const bindPort = await freePort();
  const url = `http://127.0.0.1:${httpPort}`;
  await writeFile(path.join(dir, "influxdb.conf"), config(dir, httpPort, bindPort));
  const post = async (query: string, as: typeof ADMIN | null, database?: string) => {
    const target = new URL("/query", url);
    if (database) target.searchParams.set("db", database);
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(as ? { authorization: authorization(as) } : {}),
      },
      body: new URLSearchParams({ q: query }).toString(),
    });
    const body = (await response.json()) as { error?: string; results?: { error?: string }[] };
    const error = body.error ?? body.results?.find((result) => result.error)?.error;
    if (error) throw new Error(`InfluxDB: ${error} (${query})`);
    return body;
  };
  const running = await startServerProcess({
    name: "InfluxDB",
    url,
    dir,
    start: () =>
      startProcess(binary, ["-config", path.join(dir, "influxdb.conf")], {
        PATH: process.env.PATH,
        HOME: dir,
      }),
    ready: () => ping(url),
    async setUp() {
      // The first user may be made without credentials.
      await post(
        `CREATE USER ${ADMIN.user} WITH PASSWORD ${quote(ADMIN.password)} WITH ALL PRIVILEGES`,
        null,
      );
      await post(`CREATE DATABASE ${TEST_INFLUX_DATABASE}`, ADMIN);
      await post(`CREATE USER ${READER.user} WITH PASSWORD ${quote(READER.password)}`, ADMIN);
      await post(`GRANT READ ON ${TEST_INFLUX_DATABASE} TO ${READER.user}`, ADMIN);
    },
  });
  return {
    url,
    admin: ADMIN,
    reader: READER,
    exec: (query, database) => post(query, ADMIN, database),
    async write(database, lines) {
      const response = await fetch(`${url}/write?db=${encodeURIComponent(database)}`, {
        method: "POST",
        headers: { authorization: authorization(ADMIN) },
        body: lines,
      });
      if (response.status !== 204) throw new Error(`InfluxDB write: ${await response.text()}`);
    },
    stop: () => running.stop(),
  };
}
