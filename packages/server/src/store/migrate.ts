import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { Database } from "./database";
import * as initial from "./migrations/001_initial";
import * as rowObjectChunks from "./migrations/002_row_object_chunks";
import * as endedSessions from "./migrations/003_ended_sessions";
import * as destinationFailures from "./migrations/004_destination_failures";
import * as objectVersions from "./migrations/005_object_versions";
import * as queryRuns from "./migrations/006_query_runs";
import * as resultChunkLocation from "./migrations/007_result_chunk_location";
import * as reports from "./migrations/008_reports";
import * as samlAssertions from "./migrations/009_saml_assertions";

/** Migrations in order. Each gets the dialect so one file serves SQLite and PostgreSQL. */
const steps: Record<string, (db: Kysely<unknown>, dialect: Database["dialect"]) => Promise<void>> =
  {
    "001_initial": initial.up,
    "002_row_object_chunks": rowObjectChunks.up,
    "003_ended_sessions": endedSessions.up,
    "004_destination_failures": destinationFailures.up,
    "005_object_versions": objectVersions.up,
    "006_query_runs": queryRuns.up,
    "007_result_chunk_location": resultChunkLocation.up,
    "008_reports": reports.up,
    "009_saml_assertions": samlAssertions.up,
  };

/**
 * Brings the schema up to date. Safe to run at every start: applied migrations are recorded in
 * Kysely's migration table and skipped; a lock keeps two starting servers from racing.
 */
export async function migrate(database: Database): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const all: Record<string, Migration> = {};
      for (const [name, up] of Object.entries(steps)) {
        all[name] = { up: (db) => up(db, database.dialect) };
      }
      return all;
    },
  };
  // Kysely looks for its bookkeeping tables in any schema; pin them to ours so servers in other
  // schemas of the same database (tests, several installations) never share them.
  const schema = database.schema
    ? { migrationTableSchema: database.schema, migrationLockTableSchema: database.schema }
    : {};
  const migrator = new Migrator({ db: database.db as Kysely<unknown>, provider, ...schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
