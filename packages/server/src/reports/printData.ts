// What the print page reads: the report's dashboard as its owner sees it, and the results the
// run pinned, each checked again against the owner's current rights. Nothing runs here.
import type { Kysely } from "kysely";
import type { UserIdentity } from "../auth/identity";
import { canModify } from "../policies";
import { resultRefusal } from "../policies/results";
import { presentDashboard } from "../presenters/dashboards";
import { presentWidgets } from "../presenters/widgets";
import { loadResultMeta, queryResultJsonStream } from "../results";
import { readWidgetSources } from "../services/widgetSources";
import type { DB } from "../store/schema";
import type { ReportTarget } from "./target";
import type { PinnedResult } from "./store";

/** The fixed width the report is painted at, in CSS pixels. */
export const PRINT_WIDTH = 1200;

export type PrintResult = { query_result: unknown } | { error: string };

export async function readPinnedResult(
  db: Kysely<DB>,
  owner: UserIdentity,
  pinned: PinnedResult,
  maxRows: number,
): Promise<PrintResult> {
  if ("error" in pinned) return { error: pinned.error };
  const meta = await loadResultMeta(db, owner.orgId, pinned.result_id);
  if (!meta) return { error: "The result of this widget is no longer stored." };
  const refusal = await resultRefusal(db, owner, meta);
  if (refusal) return { error: refusal };
  let text = "";
  for await (const piece of queryResultJsonStream(db, meta, { maxRows })) text += piece.toString();
  return JSON.parse(text) as { query_result: unknown };
}

export async function buildPrintData(
  db: Kysely<DB>,
  input: {
    owner: UserIdentity;
    target: ReportTarget;
    pinned: Record<string, PinnedResult>;
    parameters: Record<string, unknown>;
    maxRows: number;
  },
) {
  const { owner, target } = input;
  const sources = await readWidgetSources(db, owner, owner.orgId, target.widgets, [
    target.dashboard.user_id,
  ]);
  const dashboard = presentDashboard(target.dashboard, {
    owner: sources.users.get(target.dashboard.user_id),
    widgets: presentWidgets(target.widgets, sources),
    isFavorite: false,
    // As the owner's GET shows it (a query visualization's stand-in dashboard is no one's to edit).
    canEdit:
      target.dashboard.id !== 0 && (await canModify(db, owner, "dashboards", target.dashboard)),
  });
  const results: Record<string, PrintResult> = {};
  for (const [widgetId, pinned] of Object.entries(input.pinned)) {
    results[widgetId] = await readPinnedResult(db, owner, pinned, input.maxRows);
  }
  return { dashboard, results, parameters: input.parameters, width: PRINT_WIDTH };
}
