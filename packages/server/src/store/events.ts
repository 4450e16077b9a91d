import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { parseJson } from "./values";

/** A stored usage event with its user's current name (events are written by services/events.ts). */
export interface StoredEvent {
  id: number;
  org_id: number;
  user_id: number | null;
  user_name: string | null;
  action: string;
  object_type: string;
  object_id: string | null;
  additional_properties: Record<string, unknown>;
  created_at: string;
}

export async function countEvents(db: Kysely<DB>, orgId: number): Promise<number> {
  const row = await db
    .selectFrom("events")
    .where("org_id", "=", orgId)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of an organisation's events, newest first. */
export async function listEvents(
  db: Kysely<DB>,
  orgId: number,
  limit: number,
  offset: number,
): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom("events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select([
      "e.id",
      "e.org_id",
      "e.user_id",
      "u.name as user_name",
      "e.action",
      "e.object_type",
      "e.object_id",
      "e.additional_properties",
      "e.created_at",
    ])
    .where("e.org_id", "=", orgId)
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    ...r,
    additional_properties: parseJson<Record<string, unknown>>(r.additional_properties, {}),
  }));
}
