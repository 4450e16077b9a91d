// A ClickHouse server for tests: Debian's clickhouse-server started on 127.0.0.1 with its data in
// a temp folder and free ports (installed by .ci/run). SIGHTLINE_TEST_CLICKHOUSE_URL points the
// tests at a running server instead (its `default` user must have no password).
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startProcess, waitUntil, type ChildHandle } from "./processes";
import { REQUIRE_SERVICES } from "./services";

export interface TestClickHouse {
  /** http://127.0.0.1:<port> */
  url: string;
  /** A user with a password (TEST_CLICKHOUSE_PASSWORD) and the default profile. */
  user: string;
  password: string;
  /** A user whose profile is readonly=1 (no password). */
  readonlyUser: string;
  stop(): Promise<void>;
}

export const TEST_CLICKHOUSE_USER = "sightline";
export const TEST_CLICKHOUSE_PASSWORD = "s3cret pass";
const READONLY_USER = "reader";
const BINARIES = ["/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server"];

function configXml(dir: string, httpPort: number, tcpPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <mark_cache_size>5368709</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <shutdown_wait_unfinished>0</shutdown_wait_unfinished>
</yandex>
`;
}

function usersXml(): string {
  const user = (name: string, password: string, profile: string) =>
    `<${name}><password>${password}</password><networks><ip>127.0.0.1</ip></networks>` +
    `<profile>${profile}</profile><quota>default</quota></${name}>`;
  return `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default><max_memory_usage>2000000000</max_memory_usage><allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type></default>
    <readonly><readonly>1</readonly></readonly>
  </profiles>
  <users>
    ${user("default", "", "default")}
    ${user(TEST_CLICKHOUSE_USER, TEST_CLICKHOUSE_PASSWORD, "default")}
    ${user(READONLY_USER, "", "readonly")}
  </users>
  <quotas><default></default></quotas>
</yandex>
`;
}

async function ping(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/ping`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Starts a ClickHouse server for a test file, or null when none is installed (then its tests are
 * skipped; under CI=true that is a failure).
 */
export async function startTestClickHouse(): Promise<TestClickHouse | null> {
  const external = process.env.SIGHTLINE_TEST_CLICKHOUSE_URL;
  if (external) {
    if (!(await ping(external))) throw new Error(`ClickHouse unreachable at ${external}`);
    return {
      url: external,
      user: "default",
      password: "",
      readonlyUser: "default",
      stop: async () => undefined,
    };
  }
  const binary = BINARIES.find((file) => existsSync(file));
  if (!binary) {
    if (REQUIRE_SERVICES)
      throw new Error("ClickHouse is required under CI but clickhouse-server is not installed");
    return null;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "sightline-clickhouse-"));
  const httpPort = await freePort();
  const tcpPort = await freePort();
  await writeFile(path.join(dir, "config.xml"), configXml(dir, httpPort, tcpPort));
  await writeFile(path.join(dir, "users.xml"), usersXml());
  const handle: ChildHandle = startProcess(binary, [`--config-file=${dir}/config.xml`], {
    PATH: process.env.PATH,
    HOME: dir,
  });
  const url = `http://127.0.0.1:${httpPort}`;
  try {
    await waitUntil(async () => !handle.alive() || ping(url), 30_000, `ClickHouse on ${url}`);
    if (!handle.alive()) throw new Error("the server exited");
  } catch (error) {
    await handle.stop(1000);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`ClickHouse did not start: ${(error as Error).message}\n${handle.output()}`, {
      cause: error,
    });
  }
  return {
    url,
    user: TEST_CLICKHOUSE_USER,
    password: TEST_CLICKHOUSE_PASSWORD,
    readonlyUser: READONLY_USER,
    async stop() {
      // Its data is thrown away: no need to wait the server's own few seconds of shutdown.
      await handle.stop(500);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs statements as the `default` user (test set-up). */
export async function clickhouseExec(url: string, sql: string): Promise<string> {
  const response = await fetch(url, { method: "POST", body: sql });
  const body = await response.text();
  if (!response.ok) throw new Error(`ClickHouse: ${body}`);
  return body;
}
