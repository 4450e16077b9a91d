// A query's run history (GET api/queries/{id}/runs, issue 28).
import type { Paginated } from "@sightline/core";
import { http } from "./http";

export type RunStatus = "success" | "failed" | "cancelled" | "timeout";

export interface QueryRun {
  id: number;
  query_id: number | null;
  user_id: number | null;
  user: { id: number; name: string } | null;
  scheduled: boolean;
  status: RunStatus;
  error: string | null;
  rows: number | null;
  query_result_id: number | null;
  started_at: string;
  /** Seconds. */
  runtime: number;
}

export function listQueryRuns(
  queryId: number,
  page: number,
  pageSize: number,
): Promise<Paginated<QueryRun>> {
  return http.get<Paginated<QueryRun>>(
    `api/queries/${queryId}/runs?page=${page}&page_size=${pageSize}`,
  );
}
