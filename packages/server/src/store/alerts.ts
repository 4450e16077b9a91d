import type { Kysely, Selectable } from "kysely";
import type { AlertOptions, AlertState } from "@sightline/core";
import type { AlertsTable, AlertSubscriptionsTable, DB } from "./schema";
import { isStoredId, now, parseJson, toJson } from "./values";
import { findInOrg } from "./orgRows";

/** Alerts and their subscriptions (api-platform.md §6.7, §6.8, §11). */

export interface Alert {
  id: number;
  org_id: number;
  name: string;
  query_id: number;
  user_id: number;
  options: AlertOptions;
  state: AlertState;
  last_triggered_at: string | null;
  rearm: number | null;
  created_at: string;
  updated_at: string;
}

const STATES: readonly string[] = ["unknown", "ok", "triggered"];

function alertFromRow(row: Selectable<AlertsTable>): Alert {
  return {
    ...row,
    options: parseJson<AlertOptions>(row.options, {}),
    state: (STATES.includes(row.state) ? row.state : "unknown") as AlertState,
    rearm: row.rearm === null ? null : Number(row.rearm),
  };
}

export async function findAlert(db: Kysely<DB>, orgId: number, id: number): Promise<Alert | null> {
  const row = await findInOrg(db, "alerts", orgId, id);
  return row ? alertFromRow(row) : null;
}

/**
 * The alerts whose query's data source is linked to one of the groups, each once, by id
 * (Redash's list: group links only, admins get no bypass).
 */
export async function listAlertsForGroups(
  db: Kysely<DB>,
  orgId: number,
  groupIds: readonly number[],
): Promise<Alert[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom("alerts")
    .selectAll()
    .where("org_id", "=", orgId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("queries")
          .innerJoin(
            "data_source_groups",
            "data_source_groups.data_source_id",
            "queries.data_source_id",
          )
          .select("queries.id")
          .whereRef("queries.id", "=", "alerts.query_id")
          .where("data_source_groups.group_id", "in", [...groupIds]),
      ),
    )
    .orderBy("id")
    .execute();
  return rows.map(alertFromRow);
}

/** The alerts of the queries whose latest result this is (evaluation after a refresh). */
export async function alertsOnResult(
  db: Kysely<DB>,
  orgId: number,
  resultId: number,
): Promise<Alert[]> {
  const rows = await db
    .selectFrom("alerts")
    .innerJoin("queries", "queries.id", "alerts.query_id")
    .selectAll("alerts")
    .where("alerts.org_id", "=", orgId)
    .where("queries.latest_query_data_id", "=", resultId)
    .orderBy("alerts.id")
    .execute();
  return rows.map(alertFromRow);
}

export interface NewAlert {
  orgId: number;
  userId: number;
  name: string;
  queryId: number;
  options: AlertOptions;
  rearm: number | null;
}

export async function insertAlert(db: Kysely<DB>, input: NewAlert): Promise<Alert> {
  const ts = now();
  const row = await db
    .insertInto("alerts")
    .values({
      org_id: input.orgId,
      user_id: input.userId,
      name: input.name,
      query_id: input.queryId,
      options: toJson(input.options),
      state: "unknown",
      last_triggered_at: null,
      rearm: input.rearm,
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return alertFromRow(row);
}

export interface AlertChanges {
  name?: string;
  queryId?: number;
  options?: AlertOptions;
  rearm?: number | null;
}

export async function updateAlert(
  db: Kysely<DB>,
  id: number,
  changes: AlertChanges,
): Promise<void> {
  await db
    .updateTable("alerts")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.queryId !== undefined ? { query_id: changes.queryId } : {}),
      ...(changes.options !== undefined ? { options: toJson(changes.options) } : {}),
      ...(changes.rearm !== undefined ? { rearm: changes.rearm } : {}),
      updated_at: now(),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * The outcomes of an evaluation worth notifying: each alert's new state, all notified at `at`.
 * One statement per state, in one transaction, however many alerts changed.
 */
export async function setAlertStates(
  db: Kysely<DB>,
  changes: { id: number; state: AlertState }[],
  at: string,
): Promise<void> {
  if (changes.length === 0) return;
  const byState = new Map<AlertState, number[]>();
  for (const { id, state } of changes) byState.set(state, [...(byState.get(state) ?? []), id]);
  await db.transaction().execute(async (tx) => {
    for (const [state, ids] of byState) {
      for (const part of chunks(ids)) {
        await tx
          .updateTable("alerts")
          // Only a trigger is a "last triggered" time (alerts/evaluation.ts).
          .set(
            state === "triggered"
              ? { state, last_triggered_at: at, updated_at: at }
              : { state, updated_at: at },
          )
          .where("id", "in", part)
          .execute();
      }
    }
  });
}

/** Ids in groups small enough for one statement's parameters on every database. */
function chunks(ids: number[], size = 1000): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Deletes an alert and its subscriptions. */
export async function deleteAlert(db: Kysely<DB>, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("alert_subscriptions").where("alert_id", "=", id).execute();
    await tx.deleteFrom("alerts").where("id", "=", id).execute();
  });
}

export type Subscription = Selectable<AlertSubscriptionsTable>;

export async function listSubscriptions(db: Kysely<DB>, alertId: number): Promise<Subscription[]> {
  return listSubscriptionsOf(db, [alertId]);
}

/** The subscriptions of these alerts, by id. */
export async function listSubscriptionsOf(
  db: Kysely<DB>,
  alertIds: number[],
): Promise<Subscription[]> {
  const out: Subscription[] = [];
  for (const part of chunks([...new Set(alertIds)])) {
    out.push(
      ...(await db
        .selectFrom("alert_subscriptions")
        .selectAll()
        .where("alert_id", "in", part)
        .orderBy("id")
        .execute()),
    );
  }
  return out;
}

/** A subscription of an alert of the organisation. */
export async function findSubscription(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Subscription | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("alert_subscriptions")
    .innerJoin("alerts", "alerts.id", "alert_subscriptions.alert_id")
    .selectAll("alert_subscriptions")
    .where("alerts.org_id", "=", orgId)
    .where("alert_subscriptions.id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

/** The alert's subscription with this destination (null: the e-mail-to-self kind) for the user. */
export async function findSameSubscription(
  db: Kysely<DB>,
  alertId: number,
  userId: number,
  destinationId: number | null,
): Promise<Subscription | null> {
  let query = db.selectFrom("alert_subscriptions").selectAll().where("alert_id", "=", alertId);
  // Redash keeps one subscription per destination; an e-mail-to-self one is per user.
  query =
    destinationId === null
      ? query.where("destination_id", "is", null).where("user_id", "=", userId)
      : query.where("destination_id", "=", destinationId);
  return (await query.executeTakeFirst()) ?? null;
}

export async function insertSubscription(
  db: Kysely<DB>,
  input: { alertId: number; userId: number; destinationId: number | null },
): Promise<Subscription> {
  const ts = now();
  return db
    .insertInto("alert_subscriptions")
    .values({
      alert_id: input.alertId,
      user_id: input.userId,
      destination_id: input.destinationId,
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSubscription(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom("alert_subscriptions").where("id", "=", id).execute();
}
