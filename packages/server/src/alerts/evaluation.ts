import type { Kysely } from "kysely";
import { evaluateAlert, shouldNotifyAlert, type AlertState } from "@sightline/core";
import type { JobData } from "../execution/types";
import { loadResultMeta, readResultRowObjects, type ResultMeta } from "../results/resultStore";
import type { Cell } from "../runners/types";
import { alertsOnResult, setAlertStates, type Alert } from "../store/alerts";
import { findQueriesByIds, findQuery, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import {
  createNotifier,
  type AlertNotice,
  type Notifier,
  type NotifierDeps,
} from "./notifications";
import type { AlertResultData } from "./templates";

/**
 * Alert evaluation against stored results (api-platform.md §9.2–§9.5): after every successful
 * execution, and on demand (`POST /api/alerts/{id}/eval`). A new state is stored before any
 * notification is sent; notifications go out in the background.
 */

export interface AlertService {
  /** The alerts of the queries this result just became the latest of (the worker's hook). */
  afterResult(result: ResultMeta, job: JobData, jobId: string): Promise<void>;
  /** Evaluates now and notifies every subscription whatever the transition (manual /eval). */
  evaluateNow(alert: Alert): Promise<void>;
  /**
   * Evaluates a just-created alert against its query's latest result and stores the state, so
   * that it shows at once instead of "unknown" until the next run. Nobody is subscribed yet, so
   * nobody is notified.
   */
  evaluateNew(alert: Alert): Promise<void>;
  /** Resolves when the notifications started so far are sent or given up. */
  idle(): Promise<void>;
}

async function readData(db: Kysely<DB>, result: ResultMeta): Promise<AlertResultData> {
  const rows: Record<string, Cell>[] = [];
  for await (const chunk of readResultRowObjects(db, result)) rows.push(...chunk);
  return { columns: result.columns, rows };
}

/** Redash's execution metadata, as in the comment in front of the query's text. */
async function executionMetadata(
  db: Kysely<DB>,
  job: JobData,
  jobId: string,
): Promise<Record<string, unknown>> {
  let username = job.scheduled ? "Scheduled" : "API";
  if (!job.scheduled && job.userId !== null) {
    username =
      job.userEmail ??
      (await db.selectFrom("users").select("email").where("id", "=", job.userId).executeTakeFirst())
        ?.email ??
      "unknown";
  }
  return {
    Username: username,
    query_id: job.queryId ?? "adhoc",
    Queue: job.queueName,
    "Job ID": jobId,
    "Query Hash": job.queryHash,
    Scheduled: job.scheduled,
  };
}

/** An alert whose evaluation the notify rule lets through, with its new state. */
interface Change {
  alert: Alert;
  newState: AlertState;
}

function notifyRuleHolds(alert: Alert, newState: AlertState, at: Date): boolean {
  const lastTriggeredAt = alert.last_triggered_at ? new Date(alert.last_triggered_at) : null;
  return shouldNotifyAlert(
    { state: alert.state, rearm: alert.rearm, lastTriggeredAt },
    newState,
    at,
  );
}

export function createAlertService(deps: NotifierDeps, notifier: Notifier = createNotifier(deps)) {
  const db = deps.db;

  /**
   * Stores the changes and returns the alerts as now stored. `last_triggered_at` moves only when
   * the alert triggers (Redash moves it on every change, so "Last triggered" showed a return to
   * normal); the rearm rule reads it only while triggered, so notifications are unchanged.
   */
  async function store(changes: Change[], at: Date): Promise<Alert[]> {
    const stamp = at.toISOString();
    await setAlertStates(
      db,
      changes.map((c) => ({ id: c.alert.id, state: c.newState })),
      stamp,
    );
    return changes.map((c) => ({
      ...c.alert,
      state: c.newState,
      last_triggered_at: c.newState === "triggered" ? stamp : c.alert.last_triggered_at,
      updated_at: stamp,
    }));
  }

  /** The alert's query and its latest result's rows (null without a result). */
  async function latest(alert: Alert) {
    const query: Query | null = await findQuery(db, alert.org_id, alert.query_id);
    if (!query) return null;
    const result =
      query.latest_query_data_id === null
        ? null
        : await loadResultMeta(db, alert.org_id, query.latest_query_data_id);
    return { query, data: result ? await readData(db, result) : null };
  }

  const service: AlertService = {
    async afterResult(result, job, jobId) {
      const alerts = await alertsOnResult(db, result.orgId, result.id);
      if (alerts.length === 0) return;
      const queries = new Map(
        (
          await findQueriesByIds(
            db,
            result.orgId,
            alerts.map((a) => a.query_id),
          )
        ).map((q) => [q.id, q]),
      );
      const data = await readData(db, result);
      const at = new Date();
      const changes: Change[] = [];
      for (const alert of alerts) {
        const newState = evaluateAlert(alert.options, data);
        if (notifyRuleHolds(alert, newState, at)) changes.push({ alert, newState });
      }
      // Every new state is stored before any notification leaves.
      const stored = await store(changes, at);
      const notices: AlertNotice[] = [];
      changes.forEach(({ alert, newState }, i) => {
        const query = queries.get(alert.query_id);
        // Back to normal from "not yet known" is no news; muted alerts stay quiet.
        if (!query || (alert.state === "unknown" && newState === "ok")) return;
        if (alert.options.muted === true) return;
        notices.push({ alert: stored[i]!, query, newState, data, metadata: {} });
      });
      if (notices.length === 0) return;
      const metadata = await executionMetadata(db, job, jobId);
      notifier.dispatch(notices.map((n) => ({ ...n, metadata })));
    },

    async evaluateNow(alert) {
      const found = await latest(alert);
      if (!found) return;
      const { query, data } = found;
      const newState = evaluateAlert(alert.options, data);
      const at = new Date();
      const stored = notifyRuleHolds(alert, newState, at)
        ? (await store([{ alert, newState }], at))[0]!
        : alert;
      notifier.dispatch([{ alert: stored, query, newState, data, metadata: {} }]);
    },

    async evaluateNew(alert) {
      const found = await latest(alert);
      if (!found?.data) return;
      const newState = evaluateAlert(alert.options, found.data);
      const at = new Date();
      if (notifyRuleHolds(alert, newState, at)) await store([{ alert, newState }], at);
    },

    idle: () => notifier.idle(),
  };
  return service;
}
