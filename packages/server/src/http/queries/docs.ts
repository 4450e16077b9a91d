// The OpenAPI documentation of the query routes (the shapes are in ../schemas).
import * as S from "../schemas";

const tags = ["queries"];

const listSchema = (summary: string) => ({
  tags,
  summary,
  querystring: S.object({
    q: { ...S.str, description: "Search words; `or` and a leading `-` (not) are understood" },
    tags: S.array(S.str, "Only queries carrying all these tags"),
    order: {
      ...S.str,
      description:
        "name, created_at, schedule, runtime, executed_at, created_by or starred_at; `-` first for descending",
    },
    ...S.pageQuerystring,
  }),
  response: { 200: S.paginated(S.listedQuery, "A page of queries"), ...S.errors(400, 403, 404) },
});

/** Writable fields of create and save; other keys are ignored. */
const writableFields = {
  name: S.str,
  query: S.str,
  data_source_id: S.int,
  description: S.orNull(S.str),
  schedule: S.orNull(S.schedule),
  options: S.queryOptions,
  tags: S.array(S.str),
  latest_query_data_id: S.orNull(S.int),
};

const oneQuery = (summary: string, statuses = [403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.query, ...S.errors(...statuses) },
});

const answersNull = (summary: string) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.nullBody, ...S.errors(403, 404) },
});

const dropdown = (summary: string, params: object) => ({
  tags,
  summary,
  params,
  response: { 200: S.dropdownOptions, ...S.errors(400, 403, 404) },
});

const noDataSource = { ...S.jobRefusal, description: "The query has no data source" };

export const docs = {
  list: listSchema("List queries"),
  my: listSchema("List the caller's queries"),
  archive: listSchema("List archived queries"),
  favorites: listSchema("List the caller's favorite queries"),
  recent: {
    tags,
    summary: "The caller's 10 most recently updated queries",
    response: { 200: S.array(S.recentQuery, "Queries"), ...S.errors(403, 404) },
  },
  search: {
    tags,
    summary: "Legacy search: redirects to /api/queries",
    querystring: S.object({
      q: S.str,
      include_drafts: { ...S.str, description: "A flag: present = on" },
    }),
    response: {
      200: { ...S.array(S.anyObject), maxItems: 0, description: "`[]` when `q` is empty" },
      301: {
        ...S.object({}),
        description: "`{}`, Location /api/queries?q=…",
        headers: { location: S.str },
      },
      ...S.errors(403, 404),
    },
  },
  tags: {
    tags,
    summary: "Tags of the visible queries, with counts",
    response: {
      200: S.object(
        { tags: S.array(S.object({ name: S.str, count: S.int }, ["name", "count"])) },
        ["tags"],
        "Tags by name",
      ),
      ...S.errors(404),
    },
  },
  format: {
    tags,
    summary: "Format SQL text",
    body: S.object({ query: S.str }),
    response: {
      200: S.object({ query: S.str }, ["query"], "The formatted text"),
      ...S.errors(400, 404),
    },
  },
  create: {
    tags,
    summary: "Create a query (always a draft)",
    body: S.object(writableFields, ["name", "query", "data_source_id"]),
    response: { 200: S.query, ...S.errors(400, 403, 404) },
  },
  get: oneQuery("Get a query"),
  save: {
    ...oneQuery("Save a query (partial update)", [400, 403, 404, 409]),
    body: S.object({
      ...writableFields,
      is_draft: S.bool,
      is_archived: S.bool,
      version: { ...S.orNull(S.int), description: "When given, must match the stored version" },
    }),
  },
  archiveOne: answersNull("Archive a query"),
  fork: oneQuery("Fork a query, with its visualizations"),
  regenerateApiKey: oneQuery("Give a query a new API key"),
  addFavorite: answersNull("Add a query to the caller's favorites"),
  removeFavorite: answersNull("Remove a query from the caller's favorites"),
  dropdown: dropdown("Options of a dropdown parameter whose source is this query", S.idParams),
  dropdowns: dropdown(
    "Options of a dropdown parameter of this query, from its source query",
    S.params({ id: S.int, dropdown_query_id: S.int }),
  ),
  results: {
    tags: ["query results"],
    summary: "Run a saved query, or get its cached result",
    params: S.idParams,
    body: S.object({
      parameters: { ...S.anyObject, description: "Values, checked against the query's parameters" },
      max_age: {
        anyOf: [S.int, S.str, { type: "null" }],
        description: "Seconds: 0 = always run, -1 (default) = a cached result of any age",
      },
      apply_auto_limit: { ...S.bool, description: "Defaults to the query's option" },
    }),
    response: {
      200: S.resultOrJob,
      400: {
        anyOf: [S.errorMessage, S.jobRefusal],
        description: "Invalid parameter values, a paused data source or missing values",
      },
      401: noDataSource,
      403: { anyOf: [S.errorMessage, S.jobRefusal], description: "Not permitted to run it" },
      ...S.errors(404, 503),
    },
  },
  refresh: {
    tags: ["query results"],
    summary: "Run a saved query now (legacy)",
    description: "Parameter values come from `p_<name>` query-string arguments, unchecked.",
    params: S.idParams,
    response: {
      200: S.jobResponse,
      400: { ...S.jobRefusal, description: "A paused data source or missing parameter values" },
      401: noDataSource,
      ...S.errors(403, 404, 503),
    },
  },
};
