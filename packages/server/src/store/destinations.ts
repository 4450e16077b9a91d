import type { Kysely, Selectable } from "kysely";
import type { DB, NotificationDestinationsTable } from "./schema";
import { now } from "./values";
import { findInOrg } from "./orgRows";

/** An alert destination row; options stay encrypted until a presenter or sender reads them. */
export type Destination = Selectable<NotificationDestinationsTable>;

export async function findDestination(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Destination | null> {
  return findInOrg(db, "notification_destinations", orgId, id);
}

/** The organisation's destinations, id ascending. */
export async function listDestinations(db: Kysely<DB>, orgId: number): Promise<Destination[]> {
  return db
    .selectFrom("notification_destinations")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("id")
    .execute();
}

export async function findDestinationByName(
  db: Kysely<DB>,
  orgId: number,
  name: string,
): Promise<Destination | null> {
  const row = await db
    .selectFrom("notification_destinations")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("name", "=", name)
    .executeTakeFirst();
  return row ?? null;
}

export interface NewDestination {
  orgId: number;
  userId: number;
  name: string;
  type: string;
  encryptedOptions: string;
}

export async function insertDestination(
  db: Kysely<DB>,
  input: NewDestination,
): Promise<Destination> {
  const ts = now();
  return db
    .insertInto("notification_destinations")
    .values({
      org_id: input.orgId,
      user_id: input.userId,
      name: input.name,
      type: input.type,
      encrypted_options: input.encryptedOptions,
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateDestination(
  db: Kysely<DB>,
  id: number,
  changes: { name: string; type: string; encrypted_options: string },
): Promise<void> {
  await db
    .updateTable("notification_destinations")
    .set({ ...changes, updated_at: now() })
    .where("id", "=", id)
    .execute();
}

/** Deletes a destination and the alert subscriptions that send to it. */
export async function deleteDestination(db: Kysely<DB>, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("alert_subscriptions").where("destination_id", "=", id).execute();
    await tx.deleteFrom("notification_destinations").where("id", "=", id).execute();
  });
}

/** Remembers a failed delivery (the reason carries no secret) for the admins' view. */
export async function recordDestinationFailure(
  db: Kysely<DB>,
  id: number,
  reason: string,
  at: string,
): Promise<void> {
  await db
    .updateTable("notification_destinations")
    .set({ last_failure: reason, last_failure_at: at })
    .where("id", "=", id)
    .execute();
}

/** Destinations by id (the subscriptions of an alert), of any type. */
export async function destinationsByIds(
  db: Kysely<DB>,
  ids: (number | null)[],
): Promise<Map<number, Destination>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("notification_destinations")
    .selectAll()
    .where("id", "in", wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
