// The OpenAPI documentation of the data source routes (the shapes are in ../schemas).
import * as S from "../schemas";

const tags = ["data sources"];

/** What schemaFailureJob() answers when a schema cannot be read. */
const schemaFailure = S.object(
  {
    job: S.object(
      {
        status: { type: "integer", enum: [4] },
        error: S.object({ code: S.int, message: S.str, details: S.str }, ["code", "message"]),
      },
      ["status", "error"],
    ),
  },
  ["job"],
  "Reading the schema failed (code 1: not supported, 2: an error)",
);
const orFailure = (schema: object, description: string) => ({
  anyOf: [schema, schemaFailure],
  description,
});

const lazySchema = (summary: string, params: object, answer: object) => ({
  tags,
  summary,
  params,
  response: { 200: orFailure(answer, "The answer, or a failure"), ...S.errors(400, 403, 404) },
});

export const docs = {
  types: {
    tags,
    summary: "List data source types (admin)",
    response: { 200: S.array(S.dataSourceType, "Types by name"), ...S.errors(403, 404) },
  },
  list: {
    tags,
    summary: "List the data sources the caller can use",
    response: {
      200: S.array(S.dataSourceWithViewOnly, "Data sources by name"),
      ...S.errors(403, 404),
    },
  },
  create: {
    tags,
    summary: "Create a data source (admin)",
    body: S.typedObjectBody,
    response: { 200: S.dataSourceFull, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get a data source",
    params: S.idParams,
    response: {
      200: {
        anyOf: [
          S.object({ ...S.dataSourceFull.properties, view_only: S.bool }),
          S.dataSourceWithViewOnly,
          S.object({ view_only: S.bool }, ["view_only"]),
        ],
        description:
          "Admins get the admin form; callers without list_data_sources only `view_only`",
      },
      ...S.errors(403, 404),
    },
  },
  update: {
    tags,
    summary: "Update a data source (admin)",
    params: S.idParams,
    body: S.typedObjectBody,
    response: { 200: S.dataSourceFull, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete a data source (admin)",
    params: S.idParams,
    response: { 204: S.noContent, ...S.errors(400, 403, 404) },
  },
  schema: {
    tags,
    summary: "Tables and columns of a data source (cached)",
    params: S.idParams,
    querystring: S.object({ refresh: { ...S.str, description: "A flag: present = read again" } }),
    response: {
      200: orFailure(S.object({ schema: S.array(S.schemaTable) }, ["schema"]), "Tables by name"),
      ...S.errors(403, 404),
    },
  },
  pause: {
    tags,
    summary: "Pause a data source (admin)",
    params: S.idParams,
    querystring: S.object({ reason: { ...S.str, description: "Used when there is no body" } }),
    body: S.object({ reason: S.str }),
    response: { 200: S.dataSource, ...S.errors(400, 403, 404) },
  },
  resume: {
    tags,
    summary: "Resume a paused data source (admin)",
    params: S.idParams,
    response: { 200: S.dataSource, ...S.errors(400, 403, 404) },
  },
  test: {
    tags,
    summary: "Test a data source's connection (admin)",
    params: S.idParams,
    response: {
      200: S.object({ message: S.str, ok: S.bool }, ["message", "ok"], '"success", or the error'),
      ...S.errors(400, 403, 404),
    },
  },
  databases: lazySchema("List databases (lazy schema)", S.idParams, S.array(S.str)),
  tables: lazySchema(
    "List a database's tables (lazy schema)",
    S.params({ id: S.int, database: S.str }),
    S.object({ schema: S.array(S.schemaTable), has_columns: S.bool }, ["schema", "has_columns"]),
  ),
  columns: lazySchema(
    "List a table's columns (lazy schema)",
    S.params({ id: S.int, database: S.str, table: S.str }),
    S.array(S.schemaColumn),
  ),
};
