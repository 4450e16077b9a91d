/**
 * JSON-schema shapes of the API, for the OpenAPI document at /api/docs (api-queries.md §2A,
 * api-platform.md §6). They only document: app.ts validates nothing against them and sends
 * answers through plain JSON.stringify, so the hand-written checks in the routes (whose messages
 * and leniency follow Redash's) stay the source of truth. Objects allow additional properties,
 * and every shape a route answers carries a description, which becomes the response's title.
 */

type Schema = object;

export const str = { type: "string" } as const;
export const int = { type: "integer" } as const;
export const num = { type: "number" } as const;
export const bool = { type: "boolean" } as const;
/** ISO-8601 in UTC, at most milliseconds, e.g. `2024-05-01T10:20:30.123Z`. */
export const timestamp = { type: "string", format: "date-time" } as const;
/** Any JSON object (opaque to the server: options, schedules, settings). */
export const anyObject = { type: "object", additionalProperties: true } as const;
/** Any JSON value. */
export const anyValue = {} as const;

export const orNull = <S extends Schema>(schema: S) =>
  ({ anyOf: [schema, { type: "null" }] }) as const;

export const array = <S extends Schema>(items: S, description?: string) =>
  ({ type: "array", items, ...(description ? { description } : {}) }) as const;

/** An object with these properties; `required` lists those that are always present. */
export function object<P extends Record<string, Schema>>(
  properties: P,
  required: readonly (keyof P & string)[] = [],
  description?: string,
) {
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: true,
    ...(description ? { description } : {}),
  } as const;
}

/** An object whose every property is always present. */
export const complete = <P extends Record<string, Schema>>(properties: P, description?: string) =>
  object(properties, Object.keys(properties) as (keyof P & string)[], description);

/** Path parameters: every one is required. */
export const params = <P extends Record<string, Schema>>(properties: P) => complete(properties);

/** `{id}` path parameter of most routes (anything but a whole number is a 404). */
export const idParams = params({ id: int });

/** The JSON body `null`, which Redash answers when there is nothing to return. */
export const nullBody = { type: "null", description: "The JSON value `null`" } as const;
/** An empty body (204, CORS preflights). */
export const noContent = { type: "null", description: "No body" } as const;

// ---- Errors --------------------------------------------------------------------------------

export const errorMessage = complete({ message: str }, "Error");

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (the message says which), or a session's write without its CSRF token",
  401: "No data source to run on",
  403: "Not permitted",
  404: "Not found; also the answer to API calls without a valid session or API key",
  409: "The object changed meanwhile (version conflict)",
  429: "Rate limit exceeded",
  503: "The job queue is unavailable",
};

/**
 * `{"message": ...}` answers for these error statuses, to spread into a route's `response`.
 * The statuses keep their literal types: Fastify types `reply.code()` from the declared ones.
 */
export function errors<const C extends readonly number[]>(...statuses: C) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { ...errorMessage, description: ERROR_DESCRIPTIONS[status] },
    ]),
  ) as Record<C[number], typeof errorMessage & { description: string }>;
}

/** A refusal to run, in Redash's job shape (api-queries.md §1.3). */
export const jobRefusal = complete(
  { job: complete({ status: { type: "integer", enum: [4] }, error: str }) },
  "Refused to run",
);

// ---- Users and groups ------------------------------------------------------------------------

const userFields = {
  id: int,
  name: str,
  email: str,
  profile_image_url: str,
  groups: array(int, "Group ids"),
  updated_at: timestamp,
  created_at: timestamp,
  disabled_at: orNull(timestamp),
  is_disabled: bool,
  active_at: orNull(timestamp),
  is_invitation_pending: bool,
  is_email_verified: bool,
  auth_type: { type: "string", enum: ["password", "external"] },
} as const;
const userRequired = Object.keys(userFields) as (keyof typeof userFields)[];

export const user = complete(userFields, "A user");
export const userWithApiKey = complete({ ...userFields, api_key: str }, "A user, with the API key");
/** In GET /api/users, `groups` lists `{id, name}` objects instead of ids. */
export const listedUser = object(
  { ...userFields, groups: array(complete({ id: int, name: str })) },
  userRequired,
  "A user",
);
/** GET /api/users/<id>: the API key only for admins and the user themself. */
export const userMaybeApiKey = object(
  { ...userFields, api_key: str },
  userRequired,
  "A user; `api_key` only in the user's own answers",
);
/** A user answer that may carry `invite_link` (when no invitation email was sent). */
export const invitedUser = object(
  { ...userFields, invite_link: str },
  userRequired,
  "The user; `invite_link` when no invitation email was sent",
);

export const group = complete(
  {
    id: int,
    name: str,
    permissions: array(str),
    type: { type: "string", enum: ["builtin", "regular"] },
    created_at: timestamp,
  },
  "A group",
);

// ---- Objects with a type and options (data sources, alert destinations) ----------------------

/** Stored options as an admin reads them. */
const maskedOptions = {
  ...anyObject,
  description: "Options, every secret replaced by `--------`",
} as const;

/** A type's `configuration_schema`: which options it takes, which are required or secret. */
const configurationSchema = {
  ...anyObject,
  description: "The options' JSON schema (Redash form)",
} as const;

/** The body that creates or updates a data source or an alert destination. */
export const typedObjectBody = complete({
  name: str,
  type: str,
  options: {
    ...anyObject,
    description:
      "Checked against the type's configuration schema; `--------` keeps a stored secret",
  },
});

// ---- Data sources ------------------------------------------------------------------------------

const dataSourceFields = {
  id: int,
  name: str,
  type: str,
  syntax: str,
  paused: { type: "integer", enum: [0, 1], description: "0 or 1, as Redash sends it" },
  pause_reason: orNull(str),
  supports_auto_limit: bool,
} as const;

export const dataSource = complete(dataSourceFields, "A data source");
/** A data source with the caller's (or a group's) `view_only` flag. */
export const dataSourceWithViewOnly = complete(
  { ...dataSourceFields, view_only: bool },
  "A data source with its view-only flag",
);
/** The admin form: options with secrets masked, queues and group links. */
export const dataSourceFull = complete(
  {
    ...dataSourceFields,
    options: maskedOptions,
    queue_name: str,
    scheduled_queue_name: str,
    groups: {
      type: "object",
      additionalProperties: bool,
      description: "Group id (as a string) to its view-only flag",
    },
  },
  "A data source, admin form",
);

export const dataSourceType = complete(
  {
    name: str,
    type: str,
    syntax: str,
    supports_auto_limit: bool,
    configuration_schema: configurationSchema,
  },
  "A data source type",
);

export const schemaColumn = object({ name: str, type: orNull(str) }, ["name"], "A column");
export const schemaTable = complete({ name: str, columns: array(schemaColumn) });

// ---- Jobs and results --------------------------------------------------------------------------

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
  "A query result; API keys on the execution routes get only `data` and `retrieved_at`",
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

// ---- Queries -----------------------------------------------------------------------------------

const parameter = object(
  { name: str, title: str, type: str, value: anyValue, queryId: anyValue },
  ["name", "type"],
  "A parameter definition",
);
export const queryOptions = object({ parameters: array(parameter), apply_auto_limit: bool });
export const schedule = object({
  interval: { anyOf: [int, str, { type: "null" }], description: "Seconds" },
  time: orNull(str),
  day_of_week: orNull(str),
  until: orNull(str),
});

const visualizationFields = {
  type: str,
  name: str,
  description: orNull(str),
  options: anyObject,
  updated_at: timestamp,
  created_at: timestamp,
} as const;
export const visualization = complete({ id: int, ...visualizationFields }, "A visualization");

const queryFields = {
  id: int,
  latest_query_data_id: orNull(int),
  name: str,
  description: orNull(str),
  query: str,
  query_hash: str,
  schedule: orNull(schedule),
  api_key: str,
  is_archived: bool,
  is_draft: bool,
  updated_at: timestamp,
  created_at: timestamp,
  data_source_id: orNull(int),
  options: queryOptions,
  version: int,
  tags: array(str),
  is_safe: bool,
} as const;
const queryRequired = Object.keys(queryFields) as (keyof typeof queryFields)[];

/** One query (GET, create, save, fork, regenerate_api_key). */
export const query = object(
  {
    ...queryFields,
    user: orNull(user),
    last_modified_by: orNull(user),
    visualizations: array(visualization, "Absent after regenerate_api_key"),
    can_edit: { ...bool, description: "Only on GET" },
    is_favorite: { ...bool, description: "Absent for API keys" },
  },
  [...queryRequired, "user", "last_modified_by"],
  "A query",
);

/** The list variant (list, my, archive, favorites). */
export const listedQuery = object(
  {
    ...queryFields,
    user: orNull(user),
    last_modified_by_id: orNull(int),
    retrieved_at: orNull(timestamp),
    runtime: orNull(num),
    is_favorite: bool,
    starred_at: { ...timestamp, description: "Only when favorited" },
  },
  [...queryRequired, "user", "last_modified_by_id", "retrieved_at", "runtime", "is_favorite"],
  "A query, list variant",
);

export const recentQuery = object(
  {
    ...queryFields,
    user_id: int,
    last_modified_by_id: orNull(int),
    is_favorite: bool,
    starred_at: { ...timestamp, description: "Only when favorited" },
  },
  [...queryRequired, "user_id", "last_modified_by_id", "is_favorite"],
  "A query, recent variant",
);

/** The admin list of queries the scheduler enqueued in its last pass. */
export const outdatedQuery = object(
  {
    ...queryFields,
    user_id: int,
    last_modified_by_id: orNull(int),
    is_favorite: bool,
    user: orNull(user),
    retrieved_at: orNull(timestamp),
    runtime: orNull(num),
  },
  [...queryRequired, "user_id", "user", "retrieved_at", "runtime"],
  "A query, outdated variant",
);

/** `{count, page, page_size, results}` (api-queries.md §1.5). */
export const paginated = <S extends Schema>(item: S, description: string) =>
  complete({ count: int, page: int, page_size: int, results: array(item) }, description);

/** `page` and `page_size` of the paginated lists; unreadable numbers fall back to the defaults. */
export const pageQuerystring = {
  page: { type: "integer", minimum: 1, default: 1 },
  page_size: { type: "integer", minimum: 1, maximum: 250, default: 25 },
} as const;

export const dropdownOptions = array(complete({ name: anyValue, value: str }), "Dropdown options");

// ---- Other objects -----------------------------------------------------------------------------

export const snippet = complete(
  {
    id: int,
    trigger: str,
    description: str,
    snippet: str,
    user: orNull(user),
    updated_at: timestamp,
    created_at: timestamp,
  },
  "A query snippet",
);

export const aclGrant = complete(
  {
    id: int,
    object_id: int,
    object_type: { type: "string", enum: ["queries", "dashboards"] },
    access_type: { type: "string", enum: ["view", "modify", "delete"] },
    grantor: { ...int, description: "User id" },
    grantee: { ...int, description: "User id" },
  },
  "An access grant",
);

// ---- Dashboards and widgets (api-platform.md §6.4, §6.5) ----------------------------------------

export const widget = object(
  {
    id: int,
    width: int,
    options: { ...anyObject, description: "Stored as given: position, parameterMappings, …" },
    dashboard_id: int,
    text: { ...orNull(str), description: "Absent on restricted widgets" },
    updated_at: timestamp,
    created_at: timestamp,
    visualization: {
      ...complete({ ...visualization.properties, query }),
      description: "Visualization widgets only, with their query",
    },
    restricted: {
      type: "boolean",
      enum: [true],
      description:
        "Present when the caller may not view the widget's query (then no text or visualization)",
    },
  },
  ["id", "width", "options", "dashboard_id", "updated_at", "created_at"],
  "A widget",
);

export const dashboard = object(
  {
    id: int,
    slug: { ...str, description: "Of the current name" },
    name: str,
    user_id: int,
    user: orNull(complete({ id: int, name: str, email: str, profile_image_url: str })),
    layout: { ...anyValue, description: "Legacy; stored as given" },
    dashboard_filters_enabled: bool,
    widgets: { ...orNull(array(widget)), description: "null in lists and the create answer" },
    options: anyObject,
    is_archived: bool,
    is_draft: bool,
    tags: array(str),
    updated_at: timestamp,
    created_at: timestamp,
    version: { ...int, description: "Incremented by every save" },
    is_favorite: bool,
    starred_at: { ...timestamp, description: "Lists, when favorited" },
    can_edit: { ...bool, description: "GET one only" },
    public_url: { ...str, description: "GET one only, when shared, for its owner and admins" },
    api_key: { ...str, description: "GET one only, when shared, for its owner and admins" },
  },
  [
    "id",
    "slug",
    "name",
    "user_id",
    "user",
    "layout",
    "dashboard_filters_enabled",
    "widgets",
    "options",
    "is_archived",
    "is_draft",
    "tags",
    "updated_at",
    "created_at",
    "version",
  ],
  "A dashboard",
);

/** A shared dashboard's public form (§6.6): no ids of visualizations, no query text. */
export const publicDashboard = complete(
  {
    name: str,
    layout: anyValue,
    dashboard_filters_enabled: bool,
    updated_at: timestamp,
    created_at: timestamp,
    options: anyObject,
    widgets: array(
      object(
        {
          id: int,
          width: int,
          options: anyObject,
          text: orNull(str),
          updated_at: timestamp,
          created_at: timestamp,
          visualization: object({
            ...visualizationFields,
            query: object({ id: int, name: str, description: orNull(str), options: anyObject }),
          }),
        },
        ["id", "width", "options", "text", "updated_at", "created_at"],
      ),
    ),
  },
  "A shared dashboard",
);

const destinationFields = { id: int, name: str, type: str, icon: str } as const;
export const destination = complete(destinationFields, "A destination");
export const destinationFull = complete(
  {
    ...destinationFields,
    options: maskedOptions,
    last_failure: orNull({ ...str, description: "Why the last delivery failed" }),
    last_failure_at: orNull(timestamp),
  },
  "A destination with its options",
);
export const destinationType = object(
  {
    name: str,
    type: str,
    icon: str,
    configuration_schema: configurationSchema,
    deprecated: { ...bool, description: "Present (true) on deprecated types" },
  },
  ["name", "type", "icon", "configuration_schema"],
  "A destination type",
);

const alertFields = {
  id: int,
  name: str,
  options: {
    ...anyObject,
    description: "column, op, value, selector, muted, custom_subject, custom_body",
  },
  state: { type: "string", enum: ["unknown", "ok", "triggered"] },
  last_triggered_at: orNull(timestamp),
  updated_at: timestamp,
  created_at: timestamp,
  rearm: orNull(int),
} as const;
export const alert = complete({ ...alertFields, query, user: orNull(user) }, "An alert");
export const alertSubscription = object(
  {
    id: int,
    user: orNull(user),
    alert_id: int,
    destination: { ...destination, description: "Absent for an e-mail to the subscriber" },
  },
  ["id", "user", "alert_id"],
  "An alert subscription",
);

export const event = complete(
  {
    org_id: int,
    user_id: orNull(int),
    action: str,
    object_type: str,
    object_id: orNull(str),
    created_at: timestamp,
    user_name: str,
    browser: str,
    location: str,
    details: anyObject,
  },
  "An event",
);

/** `{settings}`: every effective setting plus `auth_google_apps_domains`. */
export const settingsResponse = complete(
  { settings: { ...anyObject, description: "Setting name to value (api-platform.md §8)" } },
  "The organisation's settings",
);

/** `{org_slug, client_config}` of /api/config, which /api/session extends. */
const configFields = {
  org_slug: str,
  client_config: { ...anyObject, description: "The web app's settings (api-platform.md §4.1)" },
} as const;
export const configResponse = complete(configFields, "Client config");
export const sessionResponse = complete(
  {
    ...configFields,
    user: object(
      {
        id: int,
        name: str,
        email: str,
        profile_image_url: str,
        groups: array(int),
        permissions: array(str),
        apiKey: { ...str, description: "Only for query and dashboard API keys" },
      },
      ["permissions"],
      "The signed-in user; for an object's API key only `permissions` ([]) and `apiKey`",
    ),
    messages: array(str, 'E.g. "email-not-verified"'),
  },
  "The session",
);

/** An HTML page answer (sign-in pages, the web app). */
export const htmlPage = (description: string) =>
  ({ description, content: { "text/html": { schema: str } } }) as const;
/** A plain-text answer. */
export const plainText = (description: string) =>
  ({ description, content: { "text/plain": { schema: str } } }) as const;
/** A redirect, with its Location header. */
export const redirect = (description: string) =>
  ({ ...noContent, description, headers: { location: str } }) as const;
