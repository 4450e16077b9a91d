import type { Kysely, Selectable } from "kysely";
import type { DB, OrganizationsTable } from "./schema";
import { now, parseJson, toJson } from "./values";
import { forgetCachedOrgs } from "./orgCache";

export interface Organization {
  id: number;
  name: string;
  slug: string;
  settings: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export const DEFAULT_ORG_SLUG = "default";

function fromRow(row: Selectable<OrganizationsTable>): Organization {
  return { ...row, settings: parseJson(row.settings, {}) };
}

export async function findOrgBySlug(db: Kysely<DB>, slug: string): Promise<Organization | null> {
  const row = await db
    .selectFrom("organizations")
    .selectAll()
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

export async function findOrgById(db: Kysely<DB>, id: number): Promise<Organization | null> {
  const row = await db
    .selectFrom("organizations")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

export async function countOrgs(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("organizations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOrg(db: Kysely<DB>, name: string, slug: string): Promise<Organization> {
  const ts = now();
  const row = await db
    .insertInto("organizations")
    .values({ name, slug, settings: "{}", created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

export async function saveOrgSettings(
  db: Kysely<DB>,
  orgId: number,
  settings: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable("organizations")
    .set({ settings: toJson(settings), updated_at: now() })
    .where("id", "=", orgId)
    .execute();
  forgetCachedOrgs(db);
}
