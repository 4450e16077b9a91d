import { SchemaNotSupportedError } from "../runners/types";

/**
 * Schemas are read during the request, so a failure is answered at once as a finished job (status
 * 4), the shape Redash's clients expect from the schema routes (api-queries.md §11.7, §12). Those
 * clients poll the job by id whatever its status, so each kind of failure has a fixed id that
 * GET /api/jobs/:id answers as well. Nothing is stored: the failures hold only fixed texts.
 */
const FAILURES = {
  "schema-not-supported": { code: 1, message: new SchemaNotSupportedError().message },
  "schema-failed": { code: 2, message: "Error retrieving schema" },
  "databases-failed": { code: 2, message: "Error retrieving database list." },
  "tables-failed": { code: 2, message: "Error retrieving schema." },
  "columns-failed": { code: 2, message: "Error retrieving table columns." },
} as const;

export type SchemaFailure = keyof typeof FAILURES;

/** The job answer of a failed schema read; `details` (the database's message) only here. */
export function schemaFailureJob(kind: SchemaFailure, details?: string) {
  return {
    job: {
      id: kind,
      status: 4,
      error: { ...FAILURES[kind], ...(details !== undefined ? { details } : {}) },
      result: null,
      query_result_id: null,
      updated_at: 0,
    },
  };
}

/** The failed schema job polled by its id, or null for any other id. */
export function polledSchemaFailure(jobId: string) {
  return Object.hasOwn(FAILURES, jobId) ? schemaFailureJob(jobId as SchemaFailure) : null;
}

/** The message of a failure kind (what the lazy routes time out with). */
export function schemaFailureMessage(kind: SchemaFailure): string {
  return FAILURES[kind].message;
}
