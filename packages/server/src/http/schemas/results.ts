// Jobs and query results: what the execution routes answer, and the result downloads.
import {
  str,
  int,
  num,
  bool,
  timestamp,
  anyObject,
  orNull,
  array,
  object,
  complete,
} from "./basics";

export const job = complete(
  {
    id: str,
    updated_at: {
      anyOf: [num, str],
      description: "0, or the start time (naive UTC ISO) while processing",
    },
    status: {
      type: "integer",
      enum: [1, 2, 3, 4, 5],
      description: "1 waiting, 2 processing, 3 done, 4 failed, 5 cancelled",
    },
    error: { ...str, description: '"" when none' },
    result: { ...orNull(int), description: "Same as query_result_id" },
    query_result_id: orNull(int),
  },
  "A job",
);
export const jobResponse = complete({ job }, "The job");

export const queryResult = object(
  {
    id: int,
    query_hash: str,
    query: str,
    data: object(
      {
        columns: array(
          object({ name: str, friendly_name: str, type: orNull(str) }, ["name", "friendly_name"]),
        ),
        rows: array(anyObject, "One object per row, keyed by column name"),
        truncated: {
          ...bool,
          description: "Present when rows were cut, at the display cap or the stored-rows cap",
        },
        row_count: {
          ...int,
          description:
            "Sightline: rows in the stored result (and its downloads), present when the display cap cut `rows`",
        },
        stored_truncated: {
          ...bool,
          description: "Sightline: present when the stored result was cut at the stored-rows cap",
        },
        log: array(str),
      },
      ["columns", "rows"],
    ),
    data_source_id: int,
    runtime: { ...num, description: "Seconds" },
    retrieved_at: timestamp,
  },
  ["data", "retrieved_at"],
  "A query result; read with an API key (a share key or a query key), on every route, only `data` and `retrieved_at`",
);
export const queryResultResponse = complete({ query_result: queryResult }, "The result");
/** A stored result as a download: JSON, CSV, TSV or XLSX by the path's extension. */
export const resultDownload = {
  description: "The result, as an attachment (Content-Disposition)",
  headers: { "content-disposition": str },
  content: {
    "application/json": { schema: queryResultResponse },
    "text/csv": { schema: str },
    "text/tab-separated-values": { schema: str },
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
      schema: { type: "string", format: "binary" },
    },
  },
} as const;

/** The execution routes answer a cached result, or a job to poll. */
export const resultOrJob = {
  anyOf: [queryResultResponse, jobResponse],
  description:
    "`{query_result}` when a cached result fits; `{job, query_result}` when the run finished " +
    "within a short wait (the job is finished, for clients that poll it); else `{job}` to poll",
} as const;
