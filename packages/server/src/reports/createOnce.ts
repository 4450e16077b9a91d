// Creating a subscription pressed twice (a double click, Enter twice, Save again after an answer
// lost to the network) makes one: the same user's identical subscription of the same dashboard
// or visualization, made moments ago, is answered instead of a copy. Creates of one user are
// taken one at a time by locking the user's row for the check and the insert, so two at once,
// on one server or two, cannot both find none.
import type { Kysely } from "kysely";
import { lockRow } from "../store/rowLocks";
import type { DB } from "../store/schema";
import {
  insertSubscription,
  listSubscriptions,
  type Subscription,
  type SubscriptionFields,
} from "./store";

/** How long after a create an identical one is taken as the same press. */
export const REPEAT_WINDOW_MS = 10_000;

const contentOf = (s: SubscriptionFields) =>
  JSON.stringify([
    s.dashboard_id,
    s.query_id,
    s.visualization_id,
    s.name,
    s.schedule,
    s.format,
    s.recipients,
    s.parameters,
    s.skip_if_empty,
    s.only_if_changed,
    s.active,
  ]);

async function recentTwin(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  fields: SubscriptionFields,
): Promise<Subscription | null> {
  const of =
    fields.dashboard_id !== null
      ? { dashboardId: fields.dashboard_id }
      : { queryId: fields.query_id! };
  const since = Date.now() - REPEAT_WINDOW_MS;
  const wanted = contentOf(fields);
  const list = await listSubscriptions(db, orgId, of);
  return (
    list.find(
      (s) => s.user_id === userId && Date.parse(s.created_at) >= since && contentOf(s) === wanted,
    ) ?? null
  );
}

/** The new subscription, or its identical twin made moments ago by the same user. */
export function insertSubscriptionOnce(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  fields: SubscriptionFields,
): Promise<Subscription> {
  return db.transaction().execute(async (tx) => {
    await lockRow(tx, "users", userId);
    return (
      (await recentTwin(tx, orgId, userId, fields)) ?? insertSubscription(tx, orgId, userId, fields)
    );
  });
}
