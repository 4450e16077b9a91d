// Data-source options (Redash's form) for the machine's PostgreSQL and MariaDB, TLS off: the local
// servers have none.
import { pgSourceDatabaseUrl, plainPgRole, TEST_MYSQL_URL, TEST_PG_URL } from "./services";

// Types, not interfaces: they go where Record<string, unknown> options are taken.
export type PgSourceOptions = {
  host: string;
  port: number;
  user: string;
  password: string;
  dbname: string;
  sslmode: string;
};

export type MysqlSourceOptions = {
  host: string;
  port: number;
  user: string;
  passwd: string;
  db: string;
  use_ssl: boolean;
};

/** The PostgreSQL at `url`, as the URL's user. */
export function pgSourceOptions(url = TEST_PG_URL): PgSourceOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    dbname: parsed.pathname.slice(1),
    sslmode: "disable",
  };
}

/**
 * The sources database (pgSourceDatabaseUrl) as the plain role: what a server whose metadata is on
 * the test PostgreSQL may connect to. The password is Redshift's required one; the server trusts
 * local connections.
 */
export async function plainPgSourceOptions(): Promise<PgSourceOptions> {
  const options = pgSourceOptions(await pgSourceDatabaseUrl());
  return { ...options, user: await plainPgRole(), password: "unused" };
}

/** The MariaDB at `url`, as the URL's user. */
export function mysqlSourceOptions(url = TEST_MYSQL_URL): MysqlSourceOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    passwd: decodeURIComponent(parsed.password),
    db: parsed.pathname.slice(1),
    use_ssl: false,
  };
}
