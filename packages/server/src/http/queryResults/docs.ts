// The OpenAPI documentation of the query result routes (the shapes are in ../schemas).
import * as S from "../schemas";
import { FILE_TYPES } from "./fileTypes";

const tags = ["query results"];

const refusal = (description: string) => ({
  anyOf: [S.errorMessage, S.jobRefusal],
  description,
});

export const docs = {
  execute: {
    tags,
    summary: "Run query text on a data source, or get a cached result",
    description:
      "Without `parameters` in the body, values come from `p_<name>` query-string arguments.",
    body: S.object(
      {
        query: S.str,
        data_source_id: { anyOf: [S.int, S.str] },
        parameters: S.anyObject,
        max_age: {
          anyOf: [S.int, S.str, { type: "null" }],
          description: "Seconds: 0 = always run, -1 (default) = a cached result of any age",
        },
        apply_auto_limit: S.bool,
        query_id: { anyOf: [S.int, S.str, { type: "null" }], description: 'A query id or "adhoc"' },
      },
      ["query", "data_source_id"],
    ),
    response: {
      200: S.resultOrJob,
      400: refusal("Invalid input, a paused data source or missing parameter values"),
      401: { ...S.jobRefusal, description: "No data source given" },
      403: refusal("Not permitted to run queries on this data source"),
      ...S.errors(404, 503),
    },
  },
  preflight: {
    tags,
    summary: "CORS preflight of a result route (no authentication)",
    response: { 200: { ...S.noContent, description: "No body; CORS headers when allowed" } },
  },
  result: {
    tags,
    summary: "Get a result, as JSON or (by extension) CSV, TSV or XLSX",
    params: S.params({
      id: { ...S.str, description: "Result id, optionally with .json, .csv, .tsv or .xlsx" },
    }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
  latest: {
    tags,
    summary: "Get a query's latest result",
    params: S.idParams,
    response: {
      200: { ...S.queryResultResponse, description: "The result, up to the display cap" },
      ...S.errors(403, 404),
    },
  },
  latestFile: {
    tags,
    summary: "Download a query's latest result",
    params: S.params({ id: S.int, filetype: { type: "string", enum: FILE_TYPES } }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
  queryResult: {
    tags,
    summary: "Download one of a query's results",
    params: S.params({
      id: S.int,
      rid: { ...S.str, description: "Result id with .json, .csv, .tsv or .xlsx" },
    }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
};
