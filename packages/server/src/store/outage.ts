import {
  type PostgresDriver,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import { SchemaScopedPostgresDialect } from "./schemaIntrospector";

/** What a request answers (503) while the metadata database cannot be reached. */
export const METADATA_UNAVAILABLE_MESSAGE =
  "The metadata database is unavailable; try again shortly.";

/**
 * A metadata statement failed because its connection was lost or could not be opened (a restart,
 * a failover, a proxy's idle timeout). Not the caller's fault: the pool opens new connections on
 * the next statement, so trying again shortly works once the database is back.
 */
export class MetadataUnavailableError extends Error {
  constructor(cause: unknown) {
    super(METADATA_UNAVAILABLE_MESSAGE, { cause });
    this.name = "MetadataUnavailableError";
  }
}

/** Network errors of the socket under a connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATEs of a server going away or refusing connections for now. */
const SERVER_GONE_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** node-postgres' own errors for a connection that ended or never opened. */
const CLIENT_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
];

/** True when `error` says the connection to PostgreSQL is lost or cannot be made. */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || SERVER_GONE_CODES.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (CLIENT_MESSAGES.some((text) => error.message.startsWith(text))) return true;
  // Several causes at once (connecting to each address of a host name).
  if (error instanceof AggregateError) return error.errors.some(isConnectionLoss);
  return false;
}

function translated(error: unknown): unknown {
  return isConnectionLoss(error) ? new MetadataUnavailableError(error) : error;
}

async function translating<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translated(error);
  }
}

/** One pooled connection whose lost-connection errors become MetadataUnavailableError. */
class TranslatingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return translating(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw translated(error);
    }
  }
}

const innerOf = (connection: DatabaseConnection) =>
  connection instanceof TranslatingConnection ? connection.inner : connection;

/** One wrapper per pooled connection, so Kysely sees the same object each time. */
const wrappers = new WeakMap<DatabaseConnection, TranslatingConnection>();

function wrapped(connection: DatabaseConnection): TranslatingConnection {
  let wrapper = wrappers.get(connection);
  if (!wrapper) {
    wrapper = new TranslatingConnection(connection);
    wrappers.set(connection, wrapper);
  }
  return wrapper;
}

/**
 * Kysely's PostgreSQL driver, with every failure caused by a lost or refused connection thrown as
 * MetadataUnavailableError: routes answer it with a 503, and only errors of the metadata database
 * are ever taken for an outage of it (a data source's errors stay what they are).
 */
export class OutageAwarePostgresDriver implements Driver {
  constructor(private readonly inner: PostgresDriver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  /** Whatever keeps a connection from opening (refused, starting up, closed to connections). */
  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return wrapped(await this.inner.acquireConnection());
    } catch (error) {
      throw new MetadataUnavailableError(error);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return translating(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection) {
    return translating(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return translating(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  savepoint(...[connection, ...rest]: Parameters<PostgresDriver["savepoint"]>) {
    return translating(() => this.inner.savepoint(innerOf(connection), ...rest));
  }

  rollbackToSavepoint(...[connection, ...rest]: Parameters<PostgresDriver["rollbackToSavepoint"]>) {
    return translating(() => this.inner.rollbackToSavepoint(innerOf(connection), ...rest));
  }

  releaseSavepoint(...[connection, ...rest]: Parameters<PostgresDriver["releaseSavepoint"]>) {
    return translating(() => this.inner.releaseSavepoint(innerOf(connection), ...rest));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    type Pooled = Parameters<PostgresDriver["releaseConnection"]>[0];
    return this.inner.releaseConnection(innerOf(connection) as Pooled);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The metadata store's PostgreSQL dialect: schema-scoped, with outages told apart. */
export class MetadataPostgresDialect extends SchemaScopedPostgresDialect {
  override createDriver(): Driver {
    return new OutageAwarePostgresDriver(super.createDriver() as PostgresDriver);
  }
}
