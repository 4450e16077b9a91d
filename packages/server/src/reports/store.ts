// Report subscriptions and their runs in the metadata store (migration 008).
import type { Kysely, Selectable } from "kysely";
import type { DB, ReportSubscriptionsTable } from "../store/schema";
import { bool, isStoredId, now, parseJson, toJson } from "../store/values";

export const REPORT_FORMATS = ["png", "pdf", "csv", "xlsx", "link"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportSchedule {
  interval: number | null;
  time: string | null;
  day_of_week: string | null;
  until: string | null;
}

export interface Recipients {
  emails: string[];
  destination_ids: number[];
}

export interface Subscription {
  id: number;
  org_id: number;
  user_id: number;
  dashboard_id: number | null;
  query_id: number | null;
  visualization_id: number | null;
  name: string;
  schedule: ReportSchedule;
  format: ReportFormat;
  recipients: Recipients;
  parameters: Record<string, unknown>;
  skip_if_empty: boolean;
  only_if_changed: boolean;
  active: boolean;
  last_scheduled_at: string | null;
  created_at: string;
  updated_at: string;
}

function subscriptionFromRow(row: Selectable<ReportSubscriptionsTable>): Subscription {
  return {
    ...row,
    schedule: parseJson<ReportSchedule>(row.schedule, {
      interval: null,
      time: null,
      day_of_week: null,
      until: null,
    }),
    format: row.format as ReportFormat,
    recipients: parseJson<Recipients>(row.recipients, { emails: [], destination_ids: [] }),
    parameters: parseJson<Record<string, unknown>>(row.parameters, {}),
    skip_if_empty: bool(row.skip_if_empty),
    only_if_changed: bool(row.only_if_changed),
    active: bool(row.active),
  };
}

export type SubscriptionFields = Pick<
  Subscription,
  | "dashboard_id"
  | "query_id"
  | "visualization_id"
  | "name"
  | "schedule"
  | "format"
  | "recipients"
  | "parameters"
  | "skip_if_empty"
  | "only_if_changed"
  | "active"
>;

export async function insertSubscription(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  fields: SubscriptionFields,
): Promise<Subscription> {
  const at = now();
  const row = await db
    .insertInto("report_subscriptions")
    .values({
      org_id: orgId,
      user_id: userId,
      dashboard_id: fields.dashboard_id,
      query_id: fields.query_id,
      visualization_id: fields.visualization_id,
      name: fields.name,
      schedule: toJson(fields.schedule),
      format: fields.format,
      recipients: toJson(fields.recipients),
      parameters: toJson(fields.parameters),
      skip_if_empty: fields.skip_if_empty,
      only_if_changed: fields.only_if_changed,
      active: fields.active,
      last_scheduled_at: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return subscriptionFromRow(row);
}

export async function updateSubscription(
  db: Kysely<DB>,
  id: number,
  fields: Partial<SubscriptionFields>,
): Promise<void> {
  const set: Record<string, unknown> = { updated_at: now() };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    set[key] =
      key === "schedule" || key === "recipients" || key === "parameters" ? toJson(value) : value;
  }
  await db.updateTable("report_subscriptions").set(set).where("id", "=", id).execute();
}

export async function deleteSubscription(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom("report_subscriptions").where("id", "=", id).execute();
}

export async function findSubscription(
  db: Kysely<DB>,
  orgId: number | null,
  id: number,
): Promise<Subscription | null> {
  if (!isStoredId(id)) return null;
  let select = db.selectFrom("report_subscriptions").selectAll().where("id", "=", id);
  if (orgId !== null) select = select.where("org_id", "=", orgId);
  const row = await select.executeTakeFirst();
  return row ? subscriptionFromRow(row) : null;
}

/** The subscriptions of a dashboard, or of a query (all its visualizations), in id order. */
export async function listSubscriptions(
  db: Kysely<DB>,
  orgId: number,
  of: { dashboardId: number } | { queryId: number },
): Promise<Subscription[]> {
  let select = db.selectFrom("report_subscriptions").selectAll().where("org_id", "=", orgId);
  select =
    "dashboardId" in of
      ? select.where("dashboard_id", "=", of.dashboardId)
      : select.where("query_id", "=", of.queryId);
  const rows = await select.orderBy("id").execute();
  return rows.map(subscriptionFromRow);
}

/** Every active subscription (the scheduler's pass). */
export async function activeSubscriptions(db: Kysely<DB>): Promise<Subscription[]> {
  const rows = await db
    .selectFrom("report_subscriptions")
    .selectAll()
    .where("active", "=", true)
    .orderBy("id")
    .execute();
  return rows.map(subscriptionFromRow);
}

export async function markScheduled(db: Kysely<DB>, id: number, at: string): Promise<void> {
  await db
    .updateTable("report_subscriptions")
    .set({ last_scheduled_at: at })
    .where("id", "=", id)
    .execute();
}

export * from "./runs";
