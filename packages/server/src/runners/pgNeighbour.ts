import pg from "pg";
import { DataSourceRefusedError } from "./types";

/**
 * A PostgreSQL data source on another database of the metadata database's server (SECURITY.md
 * rule 3): its account must not be able to reach the metadata database from there. A superuser,
 * or an account with `dblink`, `postgres_fdw` or the server-file roles, can read the users'
 * password hashes and API keys (dblink, a foreign table, `COPY … FROM PROGRAM 'psql …'`) or the
 * database's files (`pg_read_file`). Decided by the server's own catalogs, for every role the
 * session may become.
 */

/** Roles whose members read or write the server's files, or run programs on it. */
const FILE_ROLES = ["pg_read_server_files", "pg_write_server_files", "pg_execute_server_program"];
/** Functions that read server files; superusers only unless an admin granted them. */
const FILE_FUNCTIONS = ["pg_read_file", "pg_read_binary_file", "lo_import"];

// Every role the session user is a member of (so may SET ROLE to), or may grant itself.
const REACH = `WITH roles AS (
  SELECT r.oid, r.rolname, r.rolsuper, r.rolcreaterole FROM pg_roles r
  WHERE pg_has_role(session_user, r.oid, 'MEMBER')
     OR pg_has_role(session_user, r.oid, 'MEMBER WITH ADMIN OPTION')
), postgres_fdw_servers AS (
  SELECT s.oid FROM pg_foreign_server s
  JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw WHERE w.fdwname = 'postgres_fdw'
)
SELECT
  EXISTS (SELECT 1 FROM roles WHERE rolsuper) AS superuser,
  ARRAY(SELECT rolname::text FROM roles WHERE rolname = ANY($1::text[]) ORDER BY 1) AS file_roles,
  -- Before PostgreSQL 16, CREATEROLE grants membership in any role but a superuser.
  (current_setting('server_version_num')::int < 160000
    AND EXISTS (SELECT 1 FROM roles WHERE rolcreaterole)) AS grants_roles,
  EXISTS (
    SELECT 1 FROM pg_extension e
    JOIN pg_depend d ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
      AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
    JOIN roles ON has_function_privilege(roles.oid, d.objid, 'EXECUTE')
    WHERE e.extname = 'dblink'
  ) AS dblink,
  (EXISTS (
    SELECT 1 FROM pg_foreign_data_wrapper w
    JOIN roles ON has_foreign_data_wrapper_privilege(roles.oid, w.oid, 'USAGE')
    WHERE w.fdwname = 'postgres_fdw'
  ) OR EXISTS (
    SELECT 1 FROM postgres_fdw_servers s JOIN roles ON has_server_privilege(roles.oid, s.oid, 'USAGE')
  ) OR EXISTS (
    SELECT 1 FROM pg_foreign_table t JOIN postgres_fdw_servers s ON s.oid = t.ftserver
    JOIN roles ON has_table_privilege(roles.oid, t.ftrelid, 'SELECT')
  )) AS postgres_fdw,
  ARRAY(
    SELECT DISTINCT p.proname::text FROM pg_proc p
    JOIN roles ON has_function_privilege(roles.oid, p.oid, 'EXECUTE')
    WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY($2::text[])
    ORDER BY 1
  ) AS file_functions`;

interface ReachRow {
  superuser: boolean;
  file_roles: string[];
  grants_roles: boolean;
  dblink: boolean;
  postgres_fdw: boolean;
  file_functions: string[];
}

/** The refusal, naming what the account can do. */
export function neighbourAccountRefused(reasons: string[]): string {
  return (
    `This data source's account ${reasons.join(", ")} on the PostgreSQL server that holds ` +
    "Sightline's metadata database, so it could read that database (users' password hashes and " +
    "API keys) from here. Connect with an account that is not a superuser, is not a member of " +
    "pg_read_server_files, pg_write_server_files or pg_execute_server_program, and cannot use " +
    "dblink or postgres_fdw; or use a database on another server."
  );
}

/** What the connected session's account could use to reach another database of its server. */
export async function neighbourReach(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<ReachRow>(REACH, [FILE_ROLES, FILE_FUNCTIONS]);
  const row = rows[0]!;
  const reasons: string[] = [];
  // A superuser can do everything below; naming it is enough.
  if (row.superuser) return ["is a superuser"];
  for (const role of row.file_roles) reasons.push(`is a member of ${role}`);
  if (row.grants_roles) reasons.push("can create roles (and so grant itself pg_read_server_files)");
  if (row.dblink) reasons.push("can use dblink");
  if (row.postgres_fdw) reasons.push("can use postgres_fdw");
  for (const name of row.file_functions) reasons.push(`can run ${name}`);
  return reasons;
}

/** Refuses the session when its account could reach the metadata database from its server. */
export async function assertNoNeighbourReach(client: pg.Client): Promise<void> {
  const reasons = await neighbourReach(client);
  if (reasons.length > 0) throw new DataSourceRefusedError(neighbourAccountRefused(reasons));
}

/**
 * The same check when settings are saved, for a source whose address is the metadata server's:
 * connects briefly. A server that does not answer now is accepted; the check runs again on every
 * test and run, once connected.
 */
export async function assertNeighbourAccountAtSave(config: pg.ClientConfig): Promise<void> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 5000 });
  client.on("error", () => undefined);
  try {
    try {
      await client.connect();
    } catch {
      return;
    }
    await assertNoNeighbourReach(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
