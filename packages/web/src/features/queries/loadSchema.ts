// The schema for the editor: the cached one, or a schema job polled every second (spec 2 §4).
// Sources with several databases/schemas load it lazily: databases, then tables, then columns.
import type { Job } from "@sightline/core";
import {
  getDataSourceSchema,
  normalizeSchema,
  type RawSchemaTable,
  type SchemaColumn,
  type SchemaTable,
} from "../../api/dataSources";
import {
  getJob,
  getSchemaColumns,
  getSchemaDatabases,
  getSchemaTables,
  isJobAnswer,
  type LazyAnswer,
} from "../../api/queries";

const SCHEMA_POLL_MS = 1000;
export const SCHEMA_REFRESH_FAILED = "Schema refresh failed. Please try again later.";

/** Types whose server runner lists databases (or schemas) one by one (api-queries §12). */
const LAZY_SCHEMA_TYPES = new Set([
  "databricks",
  "pg",
  "mysql",
  "clickhouse",
  "redshift",
  "cockroach",
  "timescaledb",
  "mariadb",
  "rds_mysql",
  "tidb",
]);

export function hasLazySchema(type: string | undefined): boolean {
  return !!type && LAZY_SCHEMA_TYPES.has(type);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failed schema job: its message, then the data source's details (a timeout names its read). */
class SchemaJobFailure extends Error {
  constructor(
    message: string,
    readonly details: string | undefined,
  ) {
    super(details ? `${message} ${details}` : message);
  }
}

/**
 * A schema that could not be loaded: the spec's words for what failed (spec 2 §8), then what the
 * data source or the server said, kept apart so a refresh can say it in its own words.
 */
export class SchemaLoadError extends Error {
  constructor(
    summary: string,
    readonly details: string | undefined,
    cause: unknown,
  ) {
    super(details ? `${summary} ${details}` : summary, { cause });
  }
}

/** What a failure said beyond the spec's words: the job's details, or the call's own message. */
function detailsOf(error: unknown): string | undefined {
  if (error instanceof SchemaLoadError || error instanceof SchemaJobFailure) return error.details;
  return error instanceof Error && error.message ? error.message : undefined;
}

/** Runs a load; its failure reads `summary` first, then what the source or server said. */
async function saying<T>(summary: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new SchemaLoadError(summary, detailsOf(error), error);
  }
}

/** The notice for a failed Refresh: always the spec's text, then whatever the failure said. */
export function schemaRefreshFailure(error: unknown): string {
  const details = detailsOf(error);
  return details ? `${SCHEMA_REFRESH_FAILED} ${details}` : SCHEMA_REFRESH_FAILED;
}

/** Polls a job to its end: its result, or an error with the job's message and details. */
async function jobResult(first: Job, fallbackError: string): Promise<unknown> {
  let job = first;
  for (;;) {
    if (job.status === 3) return job.result;
    if (job.status === 4 || job.status === 5) {
      if (typeof job.error === "object" && job.error.code === 1) return null;
      const error = typeof job.error === "object" ? job.error : { message: job.error, details: "" };
      throw new SchemaJobFailure(error.message || fallbackError, error.details);
    }
    await sleep(SCHEMA_POLL_MS);
    job = await getJob(job.id);
  }
}

async function settle<T>(answer: LazyAnswer<T>, fallbackError: string, empty: T): Promise<T> {
  if (!isJobAnswer(answer)) return answer;
  return ((await jobResult(answer.job, fallbackError)) as T | null) ?? empty;
}

/** A job error of code 1 (schema not supported) reads as an empty schema. */
export function loadSchema(id: number, refresh = false): Promise<SchemaTable[]> {
  return saying(SCHEMA_REFRESH_FAILED, async () => {
    const answer = await getDataSourceSchema(id, refresh);
    if (answer.schema) return normalizeSchema(answer.schema);
    if (!answer.job) return [];
    const result = (await jobResult(answer.job, SCHEMA_REFRESH_FAILED)) as RawSchemaTable[] | null;
    return normalizeSchema(result ?? []);
  });
}

export function loadDatabases(id: number, refresh = false): Promise<string[]> {
  return saying("Failed to load Database list.", async () =>
    settle(await getSchemaDatabases(id, refresh), "Error retrieving database list.", []),
  );
}

/** The tables of one database, named `database.table`; their columns come later. */
export function loadTables(id: number, database: string, refresh = false): Promise<SchemaTable[]> {
  return saying(`Failed to load tables for ${database}.`, async () => {
    const answer = await getSchemaTables(id, database, refresh);
    const tables = await settle(answer, "Error retrieving schema.", {
      schema: [],
      has_columns: false,
    });
    return normalizeSchema(
      tables.schema.map((t) => ({
        ...t,
        columns: t.columns.map((c) =>
          typeof c === "string" ? c : { name: c.name, type: c.type ?? undefined },
        ),
      })),
    );
  });
}

export async function loadColumns(
  id: number,
  database: string,
  table: string,
): Promise<SchemaColumn[]> {
  const answer = await getSchemaColumns(id, database, table);
  const columns = await settle(answer, "Error retrieving table columns.", []);
  return columns.map((c) => ({ name: c.name, type: c.type ?? undefined }));
}

/** The database shown first: the remembered one, else `default`, else `public`, else the first. */
export function initialDatabase(databases: string[], remembered: string | null): string | null {
  if (remembered && databases.includes(remembered)) return remembered;
  for (const name of ["default", "public"]) if (databases.includes(name)) return name;
  return databases[0] ?? null;
}
