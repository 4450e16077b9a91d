// Typed calls of the query area: lists, the query itself, execution, results, visualizations.
import type {
  Job,
  Paginated,
  Query,
  QueryResult,
  Schedule,
  User,
  Visualization,
} from "@sightline/core";
import { buildUrl } from "./client";
import { http } from "./http";
import { InFlight } from "./inFlight";
import { getListPage, getListTags, type ListParams, type TagCount } from "./lists";

export type QueryListKind = "all" | "my" | "favorites" | "archive";

/** A row of the query lists (the server's "list" variant). */
export type QueryListItem = Pick<
  Query,
  | "id"
  | "name"
  | "tags"
  | "is_draft"
  | "is_archived"
  | "schedule"
  | "created_at"
  | "retrieved_at"
  | "runtime"
  | "is_favorite"
> & {
  user?: Pick<User, "id" | "name" | "profile_image_url">;
  /** The last scheduled run failed, was cancelled or timed out (issue 28). */
  last_scheduled_run_failed?: boolean;
  schedule_failures?: number;
};

const LIST_PATHS: Record<QueryListKind, string> = {
  all: "api/queries",
  my: "api/queries/my",
  favorites: "api/queries/favorites",
  archive: "api/queries/archive",
};

export function listQueries(
  kind: QueryListKind,
  params: ListParams,
): Promise<Paginated<QueryListItem>> {
  return getListPage(LIST_PATHS[kind], params);
}

/** The caller's most recently updated queries, drafts included (GET api/queries/recent). */
export function listRecentQueries(): Promise<QueryListItem[]> {
  return http.get<QueryListItem[]>("api/queries/recent");
}

export function getQueryTags(): Promise<TagCount[]> {
  return getListTags("api/queries/tags");
}

export function getQuery(id: number | string): Promise<Query> {
  return http.get<Query>(`api/queries/${id}`);
}

/** The fields the editor sends on save (spec 2 §7). */
export interface QuerySaveBody {
  id?: number;
  version?: number;
  name?: string;
  query?: string;
  description?: string | null;
  schedule?: Schedule | null;
  data_source_id?: number | null;
  options?: Query["options"];
  latest_query_data_id?: number | null;
  is_draft?: boolean;
  tags?: string[];
}

export function createQuery(body: QuerySaveBody): Promise<Query> {
  return http.post<Query>("api/queries", body);
}

export function saveQuery(id: number, body: QuerySaveBody): Promise<Query> {
  return http.post<Query>(`api/queries/${id}`, body);
}

/** Archive: DELETE of the query (it stays, archived). */
export function archiveQuery(id: number): Promise<null> {
  return http.delete<null>(`api/queries/${id}`);
}

export function forkQuery(id: number): Promise<Query> {
  return http.post<Query>(`api/queries/${id}/fork`);
}

export function setQueryFavorite(id: number, favorite: boolean): Promise<null> {
  return favorite
    ? http.post<null>(`api/queries/${id}/favorite`)
    : http.delete<null>(`api/queries/${id}/favorite`);
}

export function regenerateQueryApiKey(id: number): Promise<Query> {
  return http.post<Query>(`api/queries/${id}/regenerate_api_key`);
}

export interface DropdownOption {
  name: unknown;
  value: string;
}

/** Options of a query-based dropdown: its own query's values, or in the context of a parent query. */
export function getDropdownOptions(
  dropdownQueryId: number | string,
  parentQueryId?: number | null,
): Promise<DropdownOption[]> {
  return parentQueryId
    ? http.get<DropdownOption[]>(`api/queries/${parentQueryId}/dropdowns/${dropdownQueryId}`)
    : http.get<DropdownOption[]>(`api/queries/${dropdownQueryId}/dropdown`);
}

/** What the execution endpoints answer: a job to poll, or a result at once. */
export interface ExecutionAnswer {
  job?: Job;
  query_result?: QueryResult;
}

export interface AdhocExecution {
  query: string;
  data_source_id: number;
  parameters: Record<string, unknown>;
  apply_auto_limit: boolean;
  max_age: number;
  query_id?: number;
}

export function executeAdhoc(body: AdhocExecution): Promise<ExecutionAnswer> {
  return http.post<ExecutionAnswer>("api/query_results", body);
}

export interface SavedExecution {
  parameters: Record<string, unknown>;
  apply_auto_limit?: boolean;
  max_age: number;
}

const savedRuns = new InFlight<ExecutionAnswer>();

/** Runs a saved query; an identical run already being started shares its answer (one job). */
export function executeSaved(queryId: number, body: SavedExecution): Promise<ExecutionAnswer> {
  return savedRuns.share(JSON.stringify([queryId, body]), () =>
    http.post<ExecutionAnswer>(`api/queries/${queryId}/results`, { id: queryId, ...body }),
  );
}

/**
 * The parameter values a run was started with, as `p_<name>` arguments of its job polls and
 * result reads: a public dashboard's share key may read a run only of values it names.
 */
export type RunValueArgs = Record<string, string>;

/** Polls a job; query API keys use the query-scoped form. */
export async function getJob(jobId: string, queryId?: number, values?: RunValueArgs): Promise<Job> {
  const path = queryId ? `api/queries/${queryId}/jobs/${jobId}` : `api/jobs/${jobId}`;
  const answer = await http.get<{ job: Job }>(path, values);
  return answer.job;
}

export function cancelJob(jobId: string): Promise<null> {
  return http.delete<null>(`api/jobs/${jobId}`);
}

export async function getQueryResult(
  resultId: number,
  queryId?: number,
  values?: RunValueArgs,
): Promise<QueryResult> {
  const path = queryId
    ? `api/queries/${queryId}/results/${resultId}.json`
    : `api/query_results/${resultId}`;
  const answer = await http.get<{ query_result: QueryResult }>(path, values);
  return answer.query_result;
}

export type DownloadFormat = "csv" | "tsv" | "xlsx";

/** Download link of a result (spec 1 §7); unsaved queries use the bare result route. */
export function resultDownloadUrl(
  queryId: number | null,
  resultId: number,
  format: DownloadFormat,
  apiKey?: string,
): string {
  const path = queryId
    ? `api/queries/${queryId}/results/${resultId}.${format}`
    : `api/query_results/${resultId}.${format}`;
  return buildUrl(path, { api_key: apiKey });
}

export interface VisualizationBody {
  query_id?: number;
  type: string;
  name: string;
  description?: string | null;
  options: Record<string, unknown>;
}

export function createVisualization(body: VisualizationBody): Promise<Visualization> {
  return http.post<Visualization>("api/visualizations", body);
}

export function saveVisualization(id: number, body: VisualizationBody): Promise<Visualization> {
  return http.post<Visualization>(`api/visualizations/${id}`, body);
}

export function deleteVisualization(id: number): Promise<null> {
  return http.delete<null>(`api/visualizations/${id}`);
}

// --- Lazy schema (api-queries §12): sources with several databases/schemas list them one by one.

/** A lazy-schema answer: the data at once, or a job to poll (a failed job carries the error). */
export type LazyAnswer<T> = T | { job: Job };

export function isJobAnswer<T>(answer: LazyAnswer<T>): answer is { job: Job } {
  return typeof answer === "object" && answer !== null && !Array.isArray(answer) && "job" in answer;
}

const lazyBase = (dataSourceId: number) => `api/databricks/databases/${dataSourceId}`;

export function getSchemaDatabases(
  dataSourceId: number,
  refresh = false,
): Promise<LazyAnswer<string[]>> {
  return http.get(lazyBase(dataSourceId), { refresh: refresh || undefined });
}

export interface LazyTables {
  schema: { name: string; columns: (string | { name: string; type?: string | null })[] }[];
  has_columns: boolean;
}

export function getSchemaTables(
  dataSourceId: number,
  database: string,
  refresh = false,
): Promise<LazyAnswer<LazyTables>> {
  return http.get(`${lazyBase(dataSourceId)}/${encodeURIComponent(database)}/tables`, {
    refresh: refresh || undefined,
  });
}

export function getSchemaColumns(
  dataSourceId: number,
  database: string,
  table: string,
): Promise<LazyAnswer<{ name: string; type?: string | null }[]>> {
  return http.get(
    `${lazyBase(dataSourceId)}/${encodeURIComponent(database)}/columns/${encodeURIComponent(table)}`,
  );
}
