// Typed calls of scheduled reports (issue 28): a dashboard's or a query's report subscriptions,
// their runs, and the print view's data that the server's headless browser paints.
import type { Paginated, QueryResult } from "@sightline/core";
import type { DashboardDetail } from "./dashboards";
import { ApiError, CONNECTION_FAILED_MESSAGE } from "./errors";
import { http } from "./http";

export type ReportFormat = "png" | "pdf" | "csv" | "xlsx" | "link";
export const REPORT_FORMATS: readonly ReportFormat[] = ["png", "pdf", "csv", "xlsx", "link"];

export type ReportRunStatus = "queued" | "running" | "sent" | "skipped" | "failed";
export type ReportWidgetState = "painted" | "empty" | "failed" | "did_not_finish";

export interface ReportSchedule {
  interval: number | null;
  time: string | null;
  day_of_week: string | null;
  until: string | null;
}

export interface ReportRecipients {
  emails: string[];
  destination_ids: number[];
}

export interface ReportRunWidget {
  widget_id: number;
  name: string;
  state: ReportWidgetState;
  error?: string | null;
}

export interface ReportRun {
  id: number;
  subscription_id: number;
  status: ReportRunStatus;
  trigger: "schedule" | "manual";
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  recipients: string[];
  error: string | null;
  widgets: ReportRunWidget[];
  has_thumbnail: boolean;
}

export interface ReportSubscription {
  id: number;
  dashboard_id: number | null;
  query_id: number | null;
  visualization_id: number | null;
  name: string;
  user: { id: number; name: string; email: string };
  schedule: ReportSchedule | null;
  format: ReportFormat;
  recipients: ReportRecipients;
  parameters: Record<string, unknown>;
  skip_if_empty: boolean;
  only_if_changed: boolean;
  active: boolean;
  last_run: ReportRun | null;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What a create or a save sends. */
export interface ReportSubscriptionInput {
  name: string;
  schedule: ReportSchedule | null;
  format: ReportFormat;
  recipients: ReportRecipients;
  parameters: Record<string, unknown>;
  skip_if_empty: boolean;
  only_if_changed: boolean;
  active: boolean;
  visualization_id?: number | null;
}

/** Whose subscriptions: a dashboard's or a query's. */
export type ReportOwner = { kind: "dashboard"; id: number } | { kind: "query"; id: number };

const ownerPath = (owner: ReportOwner) =>
  `api/${owner.kind === "dashboard" ? "dashboards" : "queries"}/${owner.id}/subscriptions`;

export function listSubscriptions(owner: ReportOwner): Promise<ReportSubscription[]> {
  return http.get<ReportSubscription[]>(ownerPath(owner));
}

export function createSubscription(
  owner: ReportOwner,
  input: ReportSubscriptionInput,
): Promise<ReportSubscription> {
  return http.post<ReportSubscription>(ownerPath(owner), input);
}

export function saveSubscription(
  id: number,
  input: Partial<ReportSubscriptionInput>,
): Promise<ReportSubscription> {
  return http.post<ReportSubscription>(`api/subscriptions/${id}`, input);
}

export function deleteSubscription(id: number): Promise<unknown> {
  return http.delete(`api/subscriptions/${id}`);
}

/** Sends one report at once; the run is queued (202). */
export async function sendSubscriptionNow(id: number): Promise<ReportRun> {
  const answer = await http.post<{ run: ReportRun }>(`api/subscriptions/${id}/send`);
  return answer.run;
}

export function listReportRuns(
  subscriptionId: number,
  page: number,
  pageSize: number,
): Promise<Paginated<ReportRun>> {
  return http.get<Paginated<ReportRun>>(`api/subscriptions/${subscriptionId}/runs`, {
    page,
    page_size: pageSize,
  });
}

export function getReportRun(id: number): Promise<ReportRun> {
  return http.get<ReportRun>(`api/report_runs/${id}`);
}

export function reportRunThumbnailUrl(id: number): string {
  return `/api/report_runs/${id}/thumbnail.png`;
}

/** A run is over once it was sent, skipped or failed. */
export function isRunFinished(run: Pick<ReportRun, "status">): boolean {
  return run.status === "sent" || run.status === "skipped" || run.status === "failed";
}

/** One widget's pinned result in the print view's data, or why there is none. */
export type PrintWidgetResult = { query_result: QueryResult } | { error: string };

export interface PrintData {
  dashboard: DashboardDetail;
  results: Record<string, PrintWidgetResult>;
  parameters: Record<string, unknown>;
  width: number;
}

/**
 * The print view's data. Read with the run's token and no session: a refusal must come back as
 * an error at once (the app's client would wait for a login that never comes).
 */
export async function getPrintData(runId: string, token: string): Promise<PrintData> {
  const url = `/api/report_runs/${encodeURIComponent(runId)}/print_data?token=${encodeURIComponent(token)}`;
  let response: Response;
  try {
    response = await window.fetch(url, {
      headers: { Accept: "application/json" },
      credentials: "omit",
    });
  } catch {
    throw new ApiError(0, undefined, undefined, CONNECTION_FAILED_MESSAGE);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message =
      data && typeof data === "object" && "message" in data && typeof data.message === "string"
        ? data.message
        : undefined;
    throw new ApiError(response.status, message, data, response.statusText || undefined);
  }
  return data as PrintData;
}
