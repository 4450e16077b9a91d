// OpenAPI documentation of the report routes (http/reports.ts, http/reportRuns.ts).
import * as S from "./schemas";

const runWidget = S.object(
  {
    widget_id: S.int,
    name: S.str,
    state: { type: "string", enum: ["painted", "empty", "failed", "did_not_finish"] },
    error: S.str,
  },
  ["widget_id", "name", "state"],
);

export const reportRun = S.complete(
  {
    id: S.int,
    subscription_id: S.int,
    status: { type: "string", enum: ["queued", "running", "sent", "skipped", "failed"] },
    trigger: { type: "string", enum: ["schedule", "manual"] },
    started_at: S.timestamp,
    finished_at: S.orNull(S.timestamp),
    duration_ms: S.orNull(S.int),
    recipients: S.array(S.str, "E-mail addresses and destination names"),
    error: S.orNull(S.str),
    widgets: S.array(runWidget),
    has_thumbnail: S.bool,
  },
  "A report run",
);

const schedule = S.complete({
  interval: S.orNull(S.int),
  time: S.orNull(S.str),
  day_of_week: S.orNull(S.str),
  until: S.orNull(S.str),
});

export const subscription = S.complete(
  {
    id: S.int,
    dashboard_id: S.orNull(S.int),
    query_id: S.orNull(S.int),
    visualization_id: S.orNull(S.int),
    name: S.str,
    user: S.orNull(S.complete({ id: S.int, name: S.str, email: S.str })),
    schedule,
    format: { type: "string", enum: ["png", "pdf", "csv", "xlsx", "link"] },
    recipients: S.complete({ emails: S.array(S.str), destination_ids: S.array(S.int) }),
    parameters: S.anyObject,
    skip_if_empty: S.bool,
    only_if_changed: S.bool,
    active: S.bool,
    last_run: S.orNull(reportRun),
    next_run_at: S.orNull(S.timestamp),
    created_at: S.timestamp,
    updated_at: S.timestamp,
  },
  "A report subscription",
);

const body = S.object({
  name: S.str,
  visualization_id: S.int,
  schedule: S.orNull(S.anyObject),
  format: S.str,
  recipients: S.anyObject,
  parameters: S.anyObject,
  skip_if_empty: S.bool,
  only_if_changed: S.bool,
  active: S.bool,
});

const tags = ["reports"];

export const docs = {
  listOfDashboard: {
    tags,
    summary: "The dashboard's report subscriptions",
    params: S.idParams,
    response: { 200: S.array(subscription, "Subscriptions"), ...S.errors(403, 404) },
  },
  createForDashboard: {
    tags,
    summary:
      "Subscribe to the dashboard as a scheduled report (an identical one the same user made in the last 10 seconds is answered instead of a copy)",
    params: S.idParams,
    body,
    response: { 200: subscription, ...S.errors(400, 403, 404) },
  },
  listOfQuery: {
    tags,
    summary: "The report subscriptions of the query's visualizations",
    params: S.idParams,
    response: { 200: S.array(subscription, "Subscriptions"), ...S.errors(403, 404) },
  },
  createForQuery: {
    tags,
    summary:
      "Subscribe to one of the query's visualizations as a scheduled report (an identical one the same user made in the last 10 seconds is answered instead of a copy)",
    params: S.idParams,
    body,
    response: { 200: subscription, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "A report subscription",
    params: S.idParams,
    response: { 200: subscription, ...S.errors(403, 404) },
  },
  save: {
    tags,
    summary: "Change a report subscription (its owner or an admin)",
    params: S.idParams,
    body,
    response: { 200: subscription, ...S.errors(400, 403, 404) },
  },
  remove: {
    tags,
    summary: "Delete a report subscription (its owner or an admin)",
    params: S.idParams,
    response: { 204: S.noContent, ...S.errors(403, 404) },
  },
  send: {
    tags,
    summary:
      "Send the report now (while an earlier Send now is queued or being sent, that run is answered instead of a new one)",
    params: S.idParams,
    response: { 202: S.complete({ run: reportRun }, "The queued run"), ...S.errors(403, 404) },
  },
  runs: {
    tags,
    summary: "The subscription's runs, newest first",
    params: S.idParams,
    querystring: S.object(S.pageQuerystring),
    response: { 200: S.paginated(reportRun, "A page of runs"), ...S.errors(400, 403, 404) },
  },
  run: {
    tags,
    summary: "A report run",
    params: S.idParams,
    response: { 200: reportRun, ...S.errors(403, 404) },
  },
  thumbnail: {
    tags,
    summary: "A small PNG of the report a run painted",
    params: S.idParams,
    response: {
      200: { type: "string", format: "binary", description: "PNG image" },
      ...S.errors(403, 404),
    },
  },
  printData: {
    tags,
    summary: "What the print page paints (the renderer's browser only, with its one-time token)",
    params: S.idParams,
    querystring: S.object({ token: S.str }),
    response: {
      200: S.complete(
        {
          dashboard: S.anyObject,
          results: S.anyObject,
          parameters: S.anyObject,
          width: S.int,
        },
        "The dashboard and the run's pinned results",
      ),
      ...S.errors(403, 404),
    },
  },
};
