// Queries (one, and the list, recent and outdated variants), their options and schedule,
// dropdown options and query snippets (api-queries.md).
import {
  str,
  int,
  num,
  bool,
  timestamp,
  anyValue,
  orNull,
  array,
  object,
  complete,
} from "./basics";
import { user } from "./users";
import { visualization } from "./visualizations";

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
    schedule_failures: { ...int, description: "Scheduled failures in a row (back-off)" },
    last_scheduled_run_failed: {
      ...bool,
      description: "The query's last scheduled run failed, was cancelled or timed out",
    },
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

export const dropdownOptions = array(complete({ name: anyValue, value: str }), "Dropdown options");

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
