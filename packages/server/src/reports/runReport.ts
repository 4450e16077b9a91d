// One report run from start to end: the queries (once: their result ids are pinned to the run),
// the skip rules, the paint (again on a retry, never the queries), the delivery, and the status.
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Keys } from "../auth/secretKey";
import type { ExecutionService } from "../execution/types";
import type { Mailer } from "../mail";
import { slugify } from "../store/dashboards";
import type { DB } from "../store/schema";
import { now } from "../store/values";
import type { ReportsConfig } from "./config";
import { deliverReport, type DeliveryDeps } from "./deliver";
import { issuePrintToken } from "./printToken";
import { RenderError, type ReportRenderer } from "./renderer";
import { runReportQueries } from "./runQueries";
import {
  findSubscription,
  lastSentRun,
  updateRun,
  type Run,
  type RunChanges,
  type RunWidget,
  type Subscription,
} from "./store";
import { ownerIdentity, reportTarget } from "./target";
import { readReportValues, resultFiles, type FileAttachment, type ReportValues } from "./values";

export interface RunDeps {
  db: Kysely<DB>;
  keys: Keys;
  execution: ExecutionService;
  renderer: ReportRenderer;
  config: { baseUrl: string; reports: ReportsConfig };
  delivery: DeliveryDeps;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, "warn" | "error">;
}

/** A paint that failed is tried this many times in all (the queries run once). */
export const RENDER_ATTEMPTS = 2;

export const SKIPPED_EMPTY = "Every widget is empty: nothing was sent.";
export const SKIPPED_UNCHANGED =
  "The numbers did not change since the last report: nothing was sent.";

class RunFailure extends Error {}

/** The widgets' states from their results alone (formats that are not painted). */
function widgetsFromValues(values: ReportValues): RunWidget[] {
  return values.widgets.map((w) =>
    w.error
      ? { widget_id: w.widgetId, name: w.name, state: "failed", error: w.error }
      : {
          widget_id: w.widgetId,
          name: w.name,
          state: w.meta && w.meta.rowCount > 0 ? "painted" : "empty",
        },
  );
}

/** Runs one claimed run to its end; never throws (a failure is the run's status). */
export async function runReport(deps: RunDeps, claimed: Run): Promise<void> {
  const attempts = claimed.attempts + 1;
  await updateRun(deps.db, claimed.id, { attempts });
  let subscription: Subscription | null = null;
  const finish = async (changes: RunChanges) => {
    await updateRun(deps.db, claimed.id, {
      finished_at: now(),
      duration_ms: Date.now() - Date.parse(claimed.started_at),
      claimed_at: null,
      ...changes,
    });
  };
  try {
    subscription = await findSubscription(deps.db, claimed.org_id, claimed.subscription_id);
    if (!subscription) throw new RunFailure("The subscription was deleted.");
    const owner = await ownerIdentity(deps.db, subscription);
    if (!owner) throw new RunFailure("The report's owner is disabled.");
    const target = await reportTarget(deps.db, subscription);
    if (!target) throw new RunFailure("The report's dashboard or query is archived or deleted.");

    // 1–2: the queries, once; a retry finds them pinned.
    let pinned = claimed.results;
    if (!pinned) {
      pinned = await runReportQueries(
        deps,
        owner,
        target,
        subscription.parameters,
        deps.config.reports.queryBudgetSeconds * 1000,
      );
      await updateRun(deps.db, claimed.id, { results: pinned });
    }
    const values = await readReportValues(deps.db, owner, target, pinned);
    await updateRun(deps.db, claimed.id, { digest: values.digest });
    let widgets = widgetsFromValues(values);

    if (subscription.skip_if_empty && values.empty) {
      return await finish({ status: "skipped", error: SKIPPED_EMPTY, widgets });
    }
    if (subscription.only_if_changed) {
      const last = await lastSentRun(deps.db, subscription.id, claimed.id);
      if (last?.digest === values.digest) {
        return await finish({ status: "skipped", error: SKIPPED_UNCHANGED, widgets });
      }
    }

    // 3: the paint (PNG and PDF reports).
    let image: Buffer | null = null;
    let thumbnail: Buffer | null = null;
    const files: FileAttachment[] = [];
    const format = subscription.format;
    if (format === "png" || format === "pdf") {
      const token = await issuePrintToken(deps.db, deps.keys.tokens, claimed.id, subscription);
      const url = `${deps.config.reports.renderUrl}/reports/print/${claimed.id}?token=${encodeURIComponent(token)}`;
      try {
        const painted = await deps.renderer.render({
          url,
          output: format,
          budgetMs: deps.config.reports.renderBudgetSeconds * 1000,
        });
        if (painted.widgets.length === 0 && values.widgets.length > 0) {
          // The page drew no widget of a report that has some: it could not read the run's data.
          throw new RenderError("The report page could not read the report's data.");
        }
        thumbnail = painted.thumbnail;
        if (painted.widgets.length > 0) widgets = painted.widgets;
        if (format === "png") image = painted.file;
        else {
          files.push({
            filename: `${slugify(target.dashboard.name) || "report"}.pdf`,
            content: painted.file!,
            contentType: "application/pdf",
          });
        }
      } catch (error) {
        if (error instanceof RenderError && attempts < RENDER_ATTEMPTS) {
          // Painted again by the next free renderer, from the same pinned results.
          await updateRun(deps.db, claimed.id, {
            status: "queued",
            claimed_at: null,
            error: error.message,
          });
          return;
        }
        throw error;
      }
    } else if (format === "csv" || format === "xlsx") {
      files.push(...(await resultFiles(deps.db, values, format)));
    }

    // 4: the delivery.
    const outcome = await deliverReport(deps.delivery, {
      subscription,
      runId: claimed.id,
      title: subscription.name,
      link: `${deps.config.baseUrl}${target.path}`,
      image,
      files,
      values,
      widgets,
    });
    const failures = outcome.failed.map((f) => `${f.recipient}: ${f.reason}`).join("; ");
    const sent = outcome.delivered.length > 0;
    await finish({
      status: sent ? "sent" : "failed",
      recipients: outcome.delivered,
      error: failures ? `Not delivered to ${failures}` : null,
      widgets,
      thumbnail,
    });
    if (!sent) await mailOwnerOnFailure(deps, claimed, subscription, failures);
  } catch (error) {
    const message =
      error instanceof RunFailure || error instanceof RenderError
        ? error.message
        : "The report failed unexpectedly. The error was logged for the administrator.";
    if (!(error instanceof RunFailure || error instanceof RenderError)) {
      deps.log.error({ err: error, run_id: claimed.id }, "report run failed");
    }
    await finish({ status: "failed", error: message }).catch(() => {});
    if (subscription) await mailOwnerOnFailure(deps, claimed, subscription, message);
  }
}

/** A scheduled report that failed tells its owner (a manual one shows in the dialog). */
async function mailOwnerOnFailure(
  deps: RunDeps,
  run: Run,
  subscription: Subscription,
  reason: string,
): Promise<void> {
  if (run.trigger !== "schedule" || !deps.mailer.configured) return;
  const owner = await ownerIdentity(deps.db, subscription);
  if (!owner) return;
  const page =
    subscription.dashboard_id !== null
      ? `/dashboards/${subscription.dashboard_id}`
      : `/queries/${subscription.query_id}`;
  try {
    await deps.mailer.send({
      to: owner.user.email,
      subject: `Your scheduled report "${subscription.name}" failed`,
      text:
        `Hi ${owner.user.name},\n\nYour scheduled report "${subscription.name}" could not be sent:\n\n` +
        `${reason}\n\nIts run history: ${deps.config.baseUrl}${page}`,
    });
  } catch (error) {
    deps.log.warn({ err: error, run_id: run.id }, "could not e-mail a report's failure");
  }
}
