import type { Kysely, Selectable } from "kysely";
import type { DB, QuerySnippetsTable } from "./schema";
import { isStoredId, now } from "./values";

export type QuerySnippet = Selectable<QuerySnippetsTable>;

export async function listSnippets(db: Kysely<DB>, orgId: number): Promise<QuerySnippet[]> {
  return db
    .selectFrom("query_snippets")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("id")
    .execute();
}

export async function findSnippet(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<QuerySnippet | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("query_snippets")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

export async function findSnippetByTrigger(
  db: Kysely<DB>,
  orgId: number,
  trigger: string,
): Promise<QuerySnippet | null> {
  const row = await db
    .selectFrom("query_snippets")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("trigger", "=", trigger)
    .executeTakeFirst();
  return row ?? null;
}

export interface SnippetFields {
  trigger: string;
  description: string;
  snippet: string;
}

export async function insertSnippet(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  fields: SnippetFields,
): Promise<QuerySnippet> {
  const ts = now();
  return db
    .insertInto("query_snippets")
    .values({ ...fields, org_id: orgId, user_id: userId, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateSnippet(
  db: Kysely<DB>,
  id: number,
  changes: Partial<SnippetFields>,
): Promise<void> {
  await db
    .updateTable("query_snippets")
    .set({ ...changes, updated_at: now() })
    .where("id", "=", id)
    .execute();
}

export async function deleteSnippet(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom("query_snippets").where("id", "=", id).execute();
}
