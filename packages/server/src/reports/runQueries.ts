// Step 1 of a report run: every widget's query through the normal execution path, as the
// subscription's owner (their current rights, the cache as any run), with the subscription's
// parameter values. Returns what each widget will paint: a result id, or why there is none.
import type { Kysely } from "kysely";
import { invalidParametersMessage, isSavedQuerySafe, validateParameters } from "@sightline/core";
import type { UserIdentity } from "../auth/identity";
import {
  assertNotPaused,
  finalQueryText,
  renderWithValues,
  NO_PERMISSION_MESSAGE,
} from "../execution/pipeline";
import { principalOf } from "../execution/principal";
import type { ExecutionService } from "../execution/types";
import { accessAllows, queryAccess } from "../policies";
import { validationContext } from "../services/queryDropdowns";
import { findDataSource, groupLinksOf } from "../store/dataSources";
import { findQueriesByIds, parameterSchema, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import { visualizationsByIds } from "../store/visualizations";
import type { PinnedResult } from "./store";
import { widgetParameterValues, type ReportTarget } from "./target";

export interface QueryStepDeps {
  db: Kysely<DB>;
  execution: ExecutionService;
}

const POLL_MS = 200;

/** A job's end, polled until it finishes or the budget runs out. */
async function settle(
  execution: ExecutionService,
  jobId: string,
  deadline: number,
): Promise<PinnedResult> {
  for (;;) {
    const job = await execution.getJob(jobId);
    if (!job) return { error: "The query's job was lost." };
    if (job.status === 3 && job.query_result_id !== null) return { result_id: job.query_result_id };
    if (job.status === 4 || job.status === 5) return { error: job.error || "The query failed." };
    if (Date.now() > deadline) {
      return { error: "The query did not finish within the report's time budget." };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function message(error: unknown): string {
  if (error && typeof error === "object" && "error" in error && typeof error.error === "string") {
    return error.error;
  }
  return error instanceof Error ? error.message : "The query could not run.";
}

/** Starts one query's run; the promise is its pinned result. */
async function runOne(
  deps: QueryStepDeps,
  owner: UserIdentity,
  query: Query,
  values: Record<string, unknown>,
  deadline: number,
): Promise<PinnedResult> {
  const { db } = deps;
  try {
    if (query.data_source_id === null) return { error: "The query has no data source." };
    const source = await findDataSource(db, query.org_id, query.data_source_id);
    if (!source) return { error: "The query's data source is gone." };
    assertNotPaused(source);
    const links = await groupLinksOf(db, source.id);
    const access = await queryAccess(db, owner, query, links);
    const safe = isSavedQuerySafe(query.query, query.options);
    if (!accessAllows(access, safe ? "view" : "full")) return { error: NO_PERMISSION_MESSAGE };
    const schema = parameterSchema(query.options);
    const principal = principalOf(owner);
    if (schema.length > 0) {
      const context = await validationContext(db, query.org_id, schema, principal);
      const validation = validateParameters(schema, values, context);
      if (!validation.ok) return { error: invalidParametersMessage(validation.invalid) };
    }
    const text = finalQueryText(
      source.type,
      renderWithValues(query.query, values, schema),
      query.options.apply_auto_limit === true,
    );
    const outcome = await deps.execution.execute({
      orgId: query.org_id,
      dataSourceId: source.id,
      queryText: text,
      queryId: query.id,
      userId: owner.user.id,
      userEmail: owner.user.email,
      principal,
      scheduled: false,
      // A report's numbers are as of its sending: identical runs still share one job.
      maxAge: 0,
      noWait: true,
      dataSource: source,
    });
    if (outcome.kind === "result") return { result_id: outcome.resultId };
    return await settle(deps.execution, outcome.job.id, deadline);
  } catch (error) {
    return { error: message(error) };
  }
}

/**
 * Runs the queries of the target's widgets (widgets of one query with the same values share a
 * run); text widgets get no entry, widgets whose query the owner may not view an error.
 */
export async function runReportQueries(
  deps: QueryStepDeps,
  owner: UserIdentity,
  target: ReportTarget,
  parameters: Record<string, unknown>,
  budgetMs: number,
): Promise<Record<string, PinnedResult>> {
  const deadline = Date.now() + budgetMs;
  const visualizations = await visualizationsByIds(
    deps.db,
    target.widgets.flatMap((w) => (w.visualization_id === null ? [] : [w.visualization_id])),
  );
  const queries = new Map(
    (
      await findQueriesByIds(
        deps.db,
        owner.orgId,
        [...visualizations.values()].map((v) => v.query_id),
      )
    ).map((q) => [q.id, q]),
  );
  const shared = new Map<string, Promise<PinnedResult>>();
  const pending: [string, Promise<PinnedResult>][] = [];
  for (const widget of target.widgets) {
    if (widget.visualization_id === null) continue;
    const visualization = visualizations.get(widget.visualization_id);
    const query = visualization && queries.get(visualization.query_id);
    if (!query) {
      pending.push([String(widget.id), Promise.resolve({ error: "The widget's query is gone." })]);
      continue;
    }
    const values = widgetParameterValues(widget, query, parameters);
    const key = `${query.id}:${JSON.stringify(values)}`;
    let run = shared.get(key);
    if (!run) {
      run = runOne(deps, owner, query, values, deadline);
      shared.set(key, run);
    }
    pending.push([String(widget.id), run]);
  }
  const out: Record<string, PinnedResult> = {};
  for (const [widgetId, run] of pending) out[widgetId] = await run;
  return out;
}
