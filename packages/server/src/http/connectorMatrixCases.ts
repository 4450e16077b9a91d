// The cases of connectorMatrix.test.ts, one table per check: which data source, which options,
// which query, what it must say. Options are read when a case runs, from `matrix`, which the test
// file fills once its services are started.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import mysql from "mysql2/promise";
import pg from "pg";
import type { TestClickHouse } from "../testing/clickhouseServer";
import { TEST_INFLUX_DATABASE, type TestInflux } from "../testing/influxServer";
import { PROMETHEUS_T0, type TestPrometheus } from "../testing/prometheusServer";
import { pgSourceDatabaseUrl, TEST_MYSQL_URL } from "../testing/services";

type Options = Record<string, unknown>;

/** What the external services of this machine are, as the test file started them. */
export const matrix = {
  clickhouse: null as TestClickHouse | null,
  prometheus: null as TestPrometheus | null,
  influx: null as TestInflux | null,
  redisOptions: {} as Options,
  redisPrefix: "",
  myOptions: {} as Options,
  pgOptions: {} as Options,
  filesBase: "",
};

/** The services a case needs (files: none but the test's own HTTP server). */
export type Family = "clickhouse" | "prometheus" | "influxdb" | "redis" | "pg" | "mysql" | "files";

/** A server that takes connections and never answers: a run against it lasts until cancelled. */
export class SilentServer {
  open = 0;
  port = 0;
  private server = net.createServer((socket) => {
    this.open += 1;
    socket.on("close", () => (this.open -= 1));
    socket.on("error", () => undefined);
    // Read (and drop) what comes, so the client's closing reaches this side as 'close'.
    socket.resume();
  });

  async start(): Promise<this> {
    this.port = await listen(this.server);
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

export async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: net.Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const chOptions = (): Options => ({
  url: matrix.clickhouse!.url,
  user: matrix.clickhouse!.user,
  password: matrix.clickhouse!.password,
  dbname: "default",
});
const promOptions = (): Options => ({
  url: matrix.prometheus!.url,
  username: matrix.prometheus!.user,
  password: matrix.prometheus!.password,
});
const influxOptions = (): Options => ({
  url: `${matrix.influx!.url}/`,
  db: TEST_INFLUX_DATABASE,
  user: matrix.influx!.reader.user,
  password: matrix.influx!.reader.password,
});
/** Files by URL and uploads: no options, the query names what is read. */
const noOptions = (): Options => ({});
export const httpsTo = (url: string) => url.replace(/^http:/, "https:");

interface FailingConnection {
  what: string;
  family: Family;
  type: string;
  options: () => Options;
  says: RegExp;
}

/**
 * Test Connection against what fails. Not applicable: csv/excel and uploads have no server or
 * credentials to test (a file's host is named by each query: its failures are run failures,
 * below); Redis on this machine takes any password for its default user, so bad credentials are
 * an unknown ACL user (metricsSources.test.ts); the TLS rows point a TLS client at a plain server
 * (no certificate to test with here), the "TLS problem" a wrong port or scheme gives. Redis with
 * TLS against a plain server is not a row: that server waits silently for a command, so the client
 * can only time out (10 s) as with any silent host. Bad credentials and unreachable hosts of the
 * other types are rows of clickhouse/metricsSources/dataSourcePresets .test.ts.
 */
/** A TLS client pointed at the service's plain HTTP port: the "TLS problem" a wrong scheme gives. */
function tlsProblem(
  what: string,
  type: "clickhouse" | "prometheus" | "influxdb",
  options: () => Options,
  /** The plain-HTTP server spoken to over TLS: by default the data source's own. */
  plainUrl: () => string = () => String(options().url),
): FailingConnection {
  return {
    what: `${what}, TLS problem`,
    family: type,
    type,
    options: () => ({ ...options(), url: httpsTo(plainUrl()) }),
    says: /SSL|TLS|EPROTO/i,
  };
}

export const failingConnections: FailingConnection[] = [
  {
    what: "ClickHouse, database missing",
    family: "clickhouse",
    type: "clickhouse",
    options: () => ({ ...chOptions(), dbname: "sl_no_such_db" }),
    says: /sl_no_such_db.*(doesn't|does not) exist/,
  },
  // The test's own HTTP server, not ClickHouse's: Debian's ClickHouse 18.16 reads a TLS hello as
  // the start of a request and answers only if one of its random bytes ends a line; otherwise it
  // waits for the rest, so the handshake failed at once or hung, by chance (seen 2 runs in 7).
  tlsProblem("ClickHouse", "clickhouse", chOptions, () => matrix.filesBase),
  tlsProblem("Prometheus", "prometheus", promOptions),
  {
    what: "InfluxDB, database missing",
    family: "influxdb",
    type: "influxdb",
    options: () => ({ ...influxOptions(), ...matrix.influx!.admin, db: "sl_no_such_db" }),
    says: /database not found: sl_no_such_db/,
  },
  tlsProblem("InfluxDB", "influxdb", influxOptions),
  {
    what: "Redis, database missing",
    family: "redis",
    type: "redis",
    options: () => ({ ...matrix.redisOptions, db: 99_999 }),
    says: /DB index is out of range/,
  },
  ...["redshift", "cockroach", "timescaledb"].flatMap((type): FailingConnection[] => [
    {
      what: `${type}, bad credentials`,
      family: "pg",
      type,
      options: () => ({ ...matrix.pgOptions, user: "sl_no_such_role" }),
      says: /role "sl_no_such_role" does not exist/,
    },
    {
      what: `${type}, database missing`,
      family: "pg",
      type,
      options: () => ({ ...matrix.pgOptions, dbname: "sl_no_such_db" }),
      says: /database "sl_no_such_db" does not exist/,
    },
    {
      what: `${type}, TLS problem`,
      family: "pg",
      type,
      options: () => ({ ...matrix.pgOptions, sslmode: "require" }),
      says: /does not support SSL/,
    },
  ]),
  ...["mariadb", "rds_mysql", "tidb"].flatMap((type): FailingConnection[] => [
    {
      what: `${type}, unreachable host`,
      family: "mysql",
      type,
      options: () => ({ ...matrix.myOptions, port: 1 }),
      says: /ECONNREFUSED/,
    },
    {
      what: `${type}, database missing`,
      family: "mysql",
      type,
      options: () => ({ ...matrix.myOptions, db: "sl_no_such_db" }),
      says: /Unknown database 'sl_no_such_db'/,
    },
    {
      what: `${type}, TLS problem`,
      family: "mysql",
      type,
      options: () => ({ ...matrix.myOptions, use_ssl: true, ssl_mode: "required" }),
      says: /secure connection|SSL/i,
    },
  ]),
];

interface BigRun {
  family: Family;
  type: string;
  options: () => Options;
  query: () => string;
  last: Record<string, unknown>;
}

/**
 * 100,000 rows, made by the server. ClickHouse, Redis and CSV have theirs in clickhouse.test.ts,
 * metricsSources.test.ts and fileSources.test.ts.
 */
export const bigRuns: BigRun[] = [
  {
    family: "prometheus",
    type: "prometheus",
    options: promOptions,
    // sl_wide has 10 series; a 6 s step over 59,994 s gives 10,000 points each.
    query: () =>
      `query: sl_wide\nstart: ${PROMETHEUS_T0}\nend: ${PROMETHEUS_T0 + 59_994}\nstep: 6s`,
    last: { timestamp: "2023-11-15T14:53:14Z", value: 1089, shard: "9" },
  },
  {
    family: "influxdb",
    type: "influxdb",
    options: influxOptions,
    query: () => "SELECT v, part FROM many",
    last: { time: "2023-11-16T01:59:59Z", v: 99_999, part: "p9" },
  },
  {
    family: "pg",
    type: "redshift",
    options: () => matrix.pgOptions,
    query: () => "SELECT g AS n, 'row ' || g AS label FROM generate_series(0, 99999) g",
    last: { n: 99_999, label: "row 99999" },
  },
  {
    family: "mysql",
    type: "mariadb",
    options: () => matrix.myOptions,
    query: () => "SELECT seq AS n, CONCAT('row ', seq) AS label FROM seq_0_to_99999",
    last: { n: 99_999, label: "row 99999" },
  },
  {
    family: "files",
    type: "excel",
    options: noOptions,
    query: () => `url: ${matrix.filesBase}/many.xlsx`,
    last: { n: 99_999, label: "row 99999" },
  },
  {
    family: "files",
    type: "uploads",
    options: noOptions,
    query: () => "SELECT range AS n, 'row ' || range AS label FROM range(100000)",
    last: { n: 99_999, label: "row 99999" },
  },
];

interface CancelRun {
  family: Family;
  type: string;
  options: (silent: SilentServer) => Options;
  query: (marker: string, silent: SilentServer) => string;
  /** How many of the marked queries the server still runs (or connections it holds open). */
  running: (marker: string, silent: SilentServer) => Promise<number>;
}

/** A cancel seen as the closed connection to a server that never answers. */
function silentCancel(
  family: Family,
  type: string,
  options: (silent: SilentServer) => Options,
  query: (silent: SilentServer) => string,
): CancelRun {
  return {
    family,
    type,
    options,
    query: (_marker, silent) => query(silent),
    running: async (_marker, silent) => silent.open,
  };
}

async function pgRunning(marker: string): Promise<number> {
  const client = new pg.Client({ connectionString: await pgSourceDatabaseUrl() });
  await client.connect();
  try {
    const res = await client.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()",
      [`%${marker}%`],
    );
    return res.rows[0].n;
  } finally {
    await client.end();
  }
}

async function mysqlRunning(marker: string): Promise<number> {
  const connection = await mysql.createConnection({ uri: TEST_MYSQL_URL });
  try {
    const [rows] = await connection.query(
      "SELECT count(*) AS n FROM information_schema.processlist WHERE info LIKE ? AND id <> CONNECTION_ID()",
      [`%${marker}%`],
    );
    return Number((rows as { n: number }[])[0].n);
  } finally {
    await connection.end();
  }
}

/**
 * Cancel (DELETE /api/jobs/<id>) while the server works. ClickHouse's KILL QUERY is checked in
 * clickhouse.test.ts. Prometheus, InfluxDB, Redis and files answer their quick queries before a
 * cancel can arrive, so theirs is checked on a server that never answers: the connection must close.
 * Uploads run in DuckDB: a long range() is interrupted.
 */
export const cancelRuns: CancelRun[] = [
  silentCancel(
    "prometheus",
    "prometheus",
    (silent) => ({ url: silent.url }),
    () => "up",
  ),
  silentCancel(
    "influxdb",
    "influxdb",
    (silent) => ({ url: silent.url, db: "x" }),
    () => "SELECT * FROM cpu",
  ),
  silentCancel(
    "redis",
    "redis",
    (silent) => ({ host: "127.0.0.1", port: silent.port }),
    () => "GET key",
  ),
  silentCancel("files", "csv", noOptions, (silent) => `url: ${silent.url}/slow.csv`),
  silentCancel("files", "excel", noOptions, (silent) => `url: ${silent.url}/slow.xlsx`),
  {
    family: "pg",
    type: "cockroach",
    options: () => matrix.pgOptions,
    query: (marker) => `SELECT '${marker}', pg_sleep(30)`,
    running: pgRunning,
  },
  {
    family: "mysql",
    type: "tidb",
    options: () => matrix.myOptions,
    query: (marker) => `SELECT '${marker}', SLEEP(30)`,
    running: mysqlRunning,
  },
];

interface TypedRun {
  family: Family;
  type: string;
  options: () => Options;
  queries: () => string[];
}

/** Queries with each type's awkward values: every column of their results must have a type. */
export const typedRuns: TypedRun[] = [
  {
    family: "clickhouse",
    type: "clickhouse",
    options: chOptions,
    queries: () => [
      // Debian's ClickHouse (18.16) has no Map, Bool, DateTime64 or Date32: those are checked in
      // runners/clickhouseModern.test.ts on chdb's engine.
      `SELECT NULL AS n, [1, 2] AS a, [NULL, 1] AS an, tuple(1, 'x') AS t,
        toUUID('00000000-0000-0000-0000-000000000001') AS u, toNullable('x') AS nx,
        CAST('a' AS Enum8('a' = 1)) AS e, toDecimal64(1, 3) AS dec, toFixedString('ab', 2) AS fs,
        toDate('2024-01-02') AS d, toDateTime('2024-01-02 03:04:05') AS ts, 1.5 AS f,
        toUInt64(1) AS u64, toInt8(-1) AS i8`,
    ],
  },
  {
    family: "prometheus",
    type: "prometheus",
    options: promOptions,
    queries: () => [
      `query: scalar(vector(1))\ntime: ${PROMETHEUS_T0}`,
      `query: sl_requests_total\ntime: ${PROMETHEUS_T0 + 60}`,
      `query: sl_temperature\ntime: ${PROMETHEUS_T0 + 60}`,
    ],
  },
  {
    family: "influxdb",
    type: "influxdb",
    options: influxOptions,
    queries: () => [
      "SELECT * FROM kinds",
      "SELECT count(f), mean(i), last(s), first(b) FROM kinds",
      "SHOW TAG VALUES FROM kinds WITH KEY = host",
      "SHOW FIELD KEYS FROM kinds",
    ],
  },
  {
    family: "redis",
    type: "redis",
    options: () => matrix.redisOptions,
    queries: () => [
      `GET ${matrix.redisPrefix}:missing`,
      `MGET ${matrix.redisPrefix}:missing ${matrix.redisPrefix}:hash`,
      `HGETALL ${matrix.redisPrefix}:hash`,
      `ZRANGE ${matrix.redisPrefix}:zset 0 -1 WITHSCORES`,
      `XRANGE ${matrix.redisPrefix}:stream - +`,
      `SCAN 0 MATCH ${matrix.redisPrefix}:*`,
      "INFO server",
    ],
  },
  {
    family: "pg",
    type: "timescaledb",
    options: () => matrix.pgOptions,
    queries: () => [
      `SELECT NULL AS n, '{"a":1}'::jsonb AS j, ARRAY[1, 2] AS a, interval '1 day' AS i,
        '\\x01'::bytea AS b, '00000000-0000-0000-0000-000000000001'::uuid AS u,
        1.5::numeric AS num, now() AS ts, current_date AS d, '12:00'::time AS t, true AS ok,
        9007199254740993::bigint AS big, point(1, 2) AS p, '1.2.3.4'::inet AS ip`,
    ],
  },
  {
    family: "mysql",
    type: "rds_mysql",
    options: () => matrix.myOptions,
    queries: () => [
      `SELECT NULL AS n, JSON_OBJECT('a', 1) AS j, b'101' AS bits, CAST('12:00' AS TIME) AS t,
        YEAR(NOW()) AS y, NOW(3) AS ts, CURDATE() AS d, 1.5 AS num, 9007199254740993 AS big,
        x'01' AS bin, CAST(1 AS UNSIGNED) AS u`,
    ],
  },
  {
    family: "files",
    type: "csv",
    options: noOptions,
    queries: () => [`url: ${matrix.filesBase}/typed.csv`],
  },
  {
    family: "files",
    type: "excel",
    options: noOptions,
    queries: () => [`url: ${matrix.filesBase}/typed.xlsx`],
  },
  {
    family: "files",
    type: "uploads",
    options: noOptions,
    queries: () => [
      `SELECT NULL AS n, 1 AS i, [1, 2] AS l, {'a': 1} AS s, map(['k'], [1]) AS m,
        INTERVAL 1 DAY AS iv, '00000000-0000-0000-0000-000000000001'::UUID AS u,
        '\\x01'::BLOB AS b, 1.5::DECIMAL(20, 3) AS dec, 170141183460469231731687303715884105727::HUGEINT AS h,
        TIME '12:00' AS t, TIMESTAMPTZ '2024-01-02 03:04:05+00' AS tz`,
    ],
  },
];

interface RefusedRun {
  family: Family;
  type: string;
  options: () => Options;
  query: string;
  says: RegExp;
}

/**
 * URLs query text can name, to internal addresses: refused (the server allows 127.0.0.0/8 here, so
 * the test's own servers can be reached). ClickHouse would fetch url(…) itself, past Sightline's
 * guard, so such table functions are refused outright (runners/clickhouseReach.ts); DuckDB's readers
 * (uploads) have no external access. Not applicable: PromQL, InfluxQL and Redis commands name
 * no URL; PostgreSQL's COPY ... PROGRAM/dblink need a superuser (refused as a data source user,
 * dataSourceNeighbours.test.ts); mysql2 sends no local file (LOAD DATA LOCAL has no stream factory).
 */
export const refusedRuns: RefusedRun[] = [
  {
    family: "files",
    type: "excel",
    options: noOptions,
    query: "url: http://169.254.169.254/latest/book.xlsx",
    says: /169\.254\.169\.254/,
  },
  {
    family: "files",
    type: "csv",
    options: noOptions,
    query: "url: http://[::ffff:10.0.0.1]/x.csv",
    says: /10\.0\.0\.1|ffff/,
  },
  {
    family: "files",
    type: "uploads",
    options: noOptions,
    query: "SELECT * FROM read_csv('http://169.254.169.254/latest/x.csv')",
    says: /Permission Error: Cannot access file/,
  },
  {
    family: "clickhouse",
    type: "clickhouse",
    options: chOptions,
    query: "SELECT * FROM url('http://169.254.169.254/latest/x', CSV, 'a String')",
    says: /^url\(…\) is not allowed on a ClickHouse data source/,
  },
];
