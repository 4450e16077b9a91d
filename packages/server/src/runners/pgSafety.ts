import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import os from "node:os";
import pg from "pg";
import { assertNeighbourAccountAtSave, assertNoNeighbourReach } from "./pgNeighbour";
import { DataSourceRefusedError } from "./types";

/**
 * What a PostgreSQL data source's session must never be (SECURITY.md rules 3 and 4): Sightline's
 * own metadata database (its users' password hashes and API keys), and a read-only source whose
 * account can write server files, which a read-only transaction does not stop.
 */

export const METADATA_DATABASE_REFUSED =
  "This data source points at Sightline's own metadata database, which no data source may read. Use another database.";

export const READ_ONLY_NEEDS_PLAIN_ACCOUNT =
  "Read only needs a PostgreSQL account that is not a superuser and cannot write server files (not a member of pg_write_server_files or pg_execute_server_program): such an account can write files with COPY … TO even in a read-only transaction. Connect with another account, or turn Read only off.";

/** Where node-postgres would connect for these settings (it fills in its own defaults). */
interface PgAddress {
  host: string;
  port: number;
  database: string;
}

function addressOf(config: pg.ClientConfig): PgAddress {
  const client = new pg.Client(config);
  return { host: client.host, port: client.port, database: client.database ?? client.user ?? "" };
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("0.0.0.0", "ipv4");
loopback.addAddress("::1", "ipv6");
loopback.addAddress("::", "ipv6");
loopback.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

const LOCAL_NAMES = new Set([
  "localhost",
  "localhost.localdomain",
  "ip6-localhost",
  "ip6-loopback",
]);

function normalHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/** This machine's own names and addresses, as a host setting may spell them. */
function isThisMachine(host: string): boolean {
  const h = normalHost(host);
  // An empty host or a folder is a Unix socket on this machine.
  if (h === "" || h.startsWith("/")) return true;
  if (LOCAL_NAMES.has(h) || h.endsWith(".localhost") || h === os.hostname().toLowerCase()) {
    return true;
  }
  const family = isIP(h);
  if (family === 0) return false;
  if (loopback.check(h, family === 4 ? "ipv4" : "ipv6")) return true;
  return Object.values(os.networkInterfaces()).some((list) =>
    (list ?? []).some((a) => normalHost(a.address) === h),
  );
}

/** The addresses a host name resolves to (none when it does not resolve in a few seconds). */
async function addressesOf(host: string): Promise<string[]> {
  if (isIP(normalHost(host))) return [normalHost(host)];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never[]>((resolve) => {
    timer = setTimeout(() => resolve([]), 3000);
  });
  const resolved = lookup(host, { all: true })
    .then((all) => all.map((a) => normalHost(a.address)))
    .catch(() => []);
  try {
    return await Promise.race([resolved, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function sameServer(a: string, b: string): Promise<boolean> {
  if (normalHost(a) === normalHost(b)) return true;
  if (isThisMachine(a) && isThisMachine(b)) return true;
  // Other spellings of one server: aliases, numeric forms ("2130706433"), /etc/hosts names.
  const [left, right] = await Promise.all([addressesOf(a), addressesOf(b)]);
  const local = (list: string[]) => list.some(isThisMachine);
  return left.some((x) => right.includes(x)) || (local(left) && local(right));
}

/**
 * Refuses settings that name the metadata database without connecting (create, save): the same
 * server however its host is spelled, the same port, the same database name in any case.
 * Spellings this cannot see (a proxy, a replica) are caught once connected, by
 * assertSafeSession.
 */
export async function assertNotMetadataAddress(
  config: pg.ClientConfig,
  metadataDatabaseUrl: string | null,
): Promise<void> {
  if (!metadataDatabaseUrl) return;
  const source = addressOf(config);
  const metadata = addressOf({ connectionString: metadataDatabaseUrl });
  if (source.port !== metadata.port) return;
  if (source.database.toLowerCase() !== metadata.database.toLowerCase()) return;
  if (await sameServer(source.host, metadata.host)) {
    throw new DataSourceRefusedError(METADATA_DATABASE_REFUSED);
  }
}

/** Whether these settings name the metadata database's server (any of its databases). */
async function onMetadataServer(address: PgAddress, metadataDatabaseUrl: string): Promise<boolean> {
  const metadata = addressOf({ connectionString: metadataDatabaseUrl });
  return address.port === metadata.port && (await sameServer(address.host, metadata.host));
}

/**
 * Refuses, when saved, a source on another database of the metadata server whose account could
 * reach the metadata database from there (see pgNeighbour); connects only for such an address.
 */
export async function assertNoNeighbourReachAtSave(
  config: pg.ClientConfig,
  metadataDatabaseUrl: string | null,
): Promise<void> {
  if (!metadataDatabaseUrl || !(await onMetadataServer(addressOf(config), metadataDatabaseUrl))) {
    return;
  }
  await assertNeighbourAccountAtSave(config);
}

/**
 * A database as the server itself names it: its cluster's system identifier (shared by physical
 * replicas, so a replica of the metadata database is caught too) and the database's oid. Where a
 * role may not read the identifier, the server's start time stands in for it.
 */
interface DatabaseIdentity {
  system: string | null;
  started: string;
  database: string;
}

const IDENTITY_COLUMNS = `pg_postmaster_start_time()::text AS started,
  (SELECT oid::text FROM pg_database WHERE datname = current_database()) AS database`;
const WITH_SYSTEM = `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system, ${IDENTITY_COLUMNS}`;
const WITHOUT_SYSTEM = `SELECT NULL AS system, ${IDENTITY_COLUMNS}`;
/** Whether the session's account is, or may become, a role that writes server files. */
const WRITES_FILES = `SELECT EXISTS (
  SELECT 1 FROM pg_roles r WHERE pg_has_role(session_user, r.oid, 'MEMBER')
  AND (r.rolsuper OR r.rolname IN ('pg_write_server_files', 'pg_execute_server_program'))
) AS writes_files`;

async function identityOf(client: pg.Client): Promise<DatabaseIdentity> {
  try {
    return (await client.query<DatabaseIdentity>(WITH_SYSTEM)).rows[0]!;
  } catch (error) {
    // pg_control_system() revoked from this role: insufficient_privilege.
    if ((error as { code?: string }).code !== "42501") throw error;
    return (await client.query<DatabaseIdentity>(WITHOUT_SYSTEM)).rows[0]!;
  }
}

function sameDatabase(a: DatabaseIdentity, b: DatabaseIdentity): boolean {
  return a.database === b.database && sameCluster(a, b);
}

/** One server (or a physical replica of it), any database. */
function sameCluster(a: DatabaseIdentity, b: DatabaseIdentity): boolean {
  return a.system !== null && b.system !== null ? a.system === b.system : a.started === b.started;
}

/** The metadata database's identity, read once per process (and again when a check needs it). */
const metadataIdentities = new Map<string, Promise<DatabaseIdentity>>();

function metadataIdentity(url: string, fresh = false): Promise<DatabaseIdentity> {
  let known = metadataIdentities.get(url);
  if (!known || fresh) {
    known = (async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      client.on("error", () => undefined);
      try {
        await client.connect();
        return await identityOf(client);
      } finally {
        await client.end().catch(() => undefined);
      }
    })();
    known.catch(() => metadataIdentities.delete(url));
    metadataIdentities.set(url, known);
  }
  return known;
}

/**
 * Checks a data source's connected session before any query of its own runs: refused when it
 * reached the metadata database (however it was addressed), or when a read-only source's account
 * can write server files. The second is decided by the server's own role memberships rather than
 * by looking for `COPY … TO` in the text, which a function or a DO block would hide; a plain
 * account is then stopped by PostgreSQL itself ("must be superuser or have privileges of the
 * pg_write_server_files role").
 */
export async function assertSafeSession(
  client: pg.Client,
  options: { metadataDatabaseUrl: string | null; readOnly: boolean },
): Promise<void> {
  if (options.metadataDatabaseUrl) {
    const session = await identityOf(client);
    let metadata = await metadataIdentity(options.metadataDatabaseUrl);
    // Compared by start time, a mismatch may be a restart since it was read: read it again.
    const byStartTime = session.system === null || metadata.system === null;
    if (byStartTime && session.database === metadata.database && !sameDatabase(session, metadata)) {
      metadata = await metadataIdentity(options.metadataDatabaseUrl, true);
    }
    if (sameDatabase(session, metadata)) {
      throw new DataSourceRefusedError(METADATA_DATABASE_REFUSED);
    }
    // Another database of the metadata server. Compared by start time (a role without
    // pg_control_system), a restart since it was read could hide it: the address decides then.
    const neighbour =
      sameCluster(session, metadata) ||
      (byStartTime &&
        (await onMetadataServer(
          addressOf({ host: client.host, port: client.port }),
          options.metadataDatabaseUrl,
        )));
    if (neighbour) await assertNoNeighbourReach(client);
  }
  if (options.readOnly) {
    const { rows } = await client.query<{ writes_files: boolean }>(WRITES_FILES);
    if (rows[0]?.writes_files) throw new DataSourceRefusedError(READ_ONLY_NEEDS_PLAIN_ACCOUNT);
  }
}
