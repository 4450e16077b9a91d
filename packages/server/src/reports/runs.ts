// Report runs in the metadata store (migration 008): one sending of a subscription each.
import type { Kysely, Selectable } from "kysely";
import type { DB, ReportRunsTable } from "../store/schema";
import { isStoredId, now, parseJson, toJson } from "../store/values";
import type { Subscription } from "./store";

export type RunStatus = "queued" | "running" | "sent" | "skipped" | "failed";
export type RunTrigger = "schedule" | "manual";
export type WidgetState = "painted" | "empty" | "failed" | "did_not_finish";

export interface RunWidget {
  widget_id: number;
  name: string;
  state: WidgetState;
  error?: string;
}

/** What a run pinned for a widget: the result it paints, or why there is none. */
export type PinnedResult = { result_id: number } | { error: string };

export interface Run {
  id: number;
  org_id: number;
  subscription_id: number;
  status: RunStatus;
  trigger: RunTrigger;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  recipients: string[];
  error: string | null;
  widgets: RunWidget[];
  results: Record<string, PinnedResult> | null;
  digest: string | null;
  has_thumbnail: boolean;
  attempts: number;
}

type RunRow = Omit<Selectable<ReportRunsTable>, "thumbnail" | "print_nonce"> & {
  has_thumbnail: unknown;
};

function runFromRow(row: RunRow): Run {
  return {
    id: row.id,
    org_id: row.org_id,
    subscription_id: row.subscription_id,
    status: row.status as RunStatus,
    trigger: row.trigger as RunTrigger,
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    recipients: parseJson<string[]>(row.recipients, []),
    error: row.error,
    widgets: parseJson<RunWidget[]>(row.widgets, []),
    results: parseJson<Record<string, PinnedResult> | null>(row.results, null),
    digest: row.digest,
    has_thumbnail: row.has_thumbnail === true || Number(row.has_thumbnail) === 1,
    attempts: Number(row.attempts),
  };
}

const RUN_COLUMNS = [
  "id",
  "org_id",
  "subscription_id",
  "status",
  "trigger",
  "started_at",
  "finished_at",
  "duration_ms",
  "recipients",
  "error",
  "widgets",
  "results",
  "digest",
  "attempts",
  "claimed_at",
] as const;

function selectRuns(db: Kysely<DB>) {
  return db
    .selectFrom("report_runs")
    .select(RUN_COLUMNS)
    .select((eb) =>
      eb.case().when("thumbnail", "is", null).then(0).else(1).end().as("has_thumbnail"),
    );
}

export async function insertRun(
  db: Kysely<DB>,
  subscription: Subscription,
  trigger: RunTrigger,
): Promise<Run> {
  const row = await db
    .insertInto("report_runs")
    .values({
      org_id: subscription.org_id,
      subscription_id: subscription.id,
      status: "queued",
      trigger,
      started_at: now(),
      recipients: "[]",
      widgets: "[]",
      attempts: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findRun(db, null, row.id))!;
}

/** A "Send now" run of the subscription not over yet (queued or being sent), the newest. */
export async function manualRunUnderWay(
  db: Kysely<DB>,
  subscriptionId: number,
): Promise<Run | null> {
  const row = await selectRuns(db)
    .where("subscription_id", "=", subscriptionId)
    .where("trigger", "=", "manual")
    .where("status", "in", ["queued", "running"])
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? runFromRow(row) : null;
}

export async function findRun(
  db: Kysely<DB>,
  orgId: number | null,
  id: number,
): Promise<Run | null> {
  if (!isStoredId(id)) return null;
  let select = selectRuns(db).where("id", "=", id);
  if (orgId !== null) select = select.where("org_id", "=", orgId);
  const row = await select.executeTakeFirst();
  return row ? runFromRow(row) : null;
}

export async function listRuns(
  db: Kysely<DB>,
  subscriptionId: number,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: Run[] }> {
  const counted = await db
    .selectFrom("report_runs")
    .where("subscription_id", "=", subscriptionId)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const rows = await selectRuns(db)
    .where("subscription_id", "=", subscriptionId)
    .orderBy("id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { count: Number(counted?.n ?? 0), results: rows.map(runFromRow) };
}

/** The newest run of each of these subscriptions. */
export async function lastRunsOf(
  db: Kysely<DB>,
  subscriptionIds: number[],
): Promise<Map<number, Run>> {
  const out = new Map<number, Run>();
  if (subscriptionIds.length === 0) return out;
  const rows = await selectRuns(db)
    .where("subscription_id", "in", subscriptionIds)
    .where("id", "in", (eb) =>
      eb
        .selectFrom("report_runs as newer")
        .select((e) => e.fn.max("newer.id").as("m"))
        .where("newer.subscription_id", "in", subscriptionIds)
        .groupBy("newer.subscription_id"),
    )
    .execute();
  for (const row of rows) out.set(row.subscription_id, runFromRow(row));
  return out;
}

/** The newest sent run of a subscription other than `exceptRunId` (only_if_changed). */
export async function lastSentRun(
  db: Kysely<DB>,
  subscriptionId: number,
  exceptRunId: number,
): Promise<Run | null> {
  const row = await selectRuns(db)
    .where("subscription_id", "=", subscriptionId)
    .where("status", "=", "sent")
    .where("id", "<>", exceptRunId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? runFromRow(row) : null;
}

/**
 * Takes a queued run (or one whose worker went quiet for `staleMs`) for this worker: one
 * statement per candidate, so two workers never take the same run.
 */
export async function claimRun(db: Kysely<DB>, staleMs: number): Promise<Run | null> {
  const staleBefore = new Date(Date.now() - staleMs).toISOString();
  const candidates = await db
    .selectFrom("report_runs")
    .select(["id", "status", "claimed_at"])
    .where((eb) =>
      eb.or([
        eb("status", "=", "queued"),
        eb.and([eb("status", "=", "running"), eb("claimed_at", "<", staleBefore)]),
      ]),
    )
    .orderBy("id")
    .limit(5)
    .execute();
  for (const candidate of candidates) {
    let update = db
      .updateTable("report_runs")
      .set({ status: "running", claimed_at: now() })
      .where("id", "=", candidate.id)
      .where("status", "=", candidate.status);
    update =
      candidate.claimed_at === null
        ? update.where("claimed_at", "is", null)
        : update.where("claimed_at", "=", candidate.claimed_at);
    const done = await update.executeTakeFirst();
    if (Number(done.numUpdatedRows) === 1) return findRun(db, null, candidate.id);
  }
  return null;
}

export interface RunChanges {
  status?: RunStatus;
  finished_at?: string | null;
  duration_ms?: number | null;
  recipients?: string[];
  error?: string | null;
  widgets?: RunWidget[];
  results?: Record<string, PinnedResult>;
  digest?: string | null;
  thumbnail?: Buffer | null;
  attempts?: number;
  claimed_at?: string | null;
}

export async function updateRun(db: Kysely<DB>, id: number, changes: RunChanges): Promise<void> {
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    set[key] =
      key === "recipients" || key === "widgets" || key === "results" ? toJson(value) : value;
  }
  if (Object.keys(set).length === 0) return;
  await db.updateTable("report_runs").set(set).where("id", "=", id).execute();
}

export async function runThumbnail(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Buffer | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("report_runs")
    .select("thumbnail")
    .where("org_id", "=", orgId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.thumbnail ? Buffer.from(row.thumbnail) : null;
}

/** Runs kept per subscription; older ones are deleted as new ones arrive. */
export const RUNS_KEPT_PER_SUBSCRIPTION = 100;

export async function trimRuns(db: Kysely<DB>, subscriptionId: number): Promise<void> {
  const oldestKept = await db
    .selectFrom("report_runs")
    .select("id")
    .where("subscription_id", "=", subscriptionId)
    .orderBy("id", "desc")
    .offset(RUNS_KEPT_PER_SUBSCRIPTION - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) {
    await db
      .deleteFrom("report_runs")
      .where("subscription_id", "=", subscriptionId)
      .where("id", "<", oldestKept.id)
      .execute();
  }
}
