import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { findOrgBySlug, type Organization } from "./organizations";

/**
 * Organisations by slug, kept in memory a few seconds: every request needs its organisation, and
 * organisations change rarely (a settings save). A save through this process is seen at once
 * (saveOrgSettings forgets the store's entries); another server sees it within ORG_CACHE_MS.
 * Nothing that must be refused at once is kept here: users, sessions, keys and group
 * memberships are read on every request (store/callers.ts). A missing organisation is not kept,
 * so first-run setup is noticed at once.
 */
export const ORG_CACHE_MS = 5_000;

interface Entry {
  org: Organization;
  until: number;
}

const byStore = new WeakMap<Kysely<DB>, Map<string, Entry>>();

/** The organisation, from memory while fresh; each caller gets its own copy to change freely. */
export async function findOrgBySlugCached(
  db: Kysely<DB>,
  slug: string,
): Promise<Organization | null> {
  let entries = byStore.get(db);
  if (!entries) {
    entries = new Map();
    byStore.set(db, entries);
  }
  const entry = entries.get(slug);
  if (entry && entry.until > Date.now()) return structuredClone(entry.org);
  const org = await findOrgBySlug(db, slug);
  if (org) entries.set(slug, { org: structuredClone(org), until: Date.now() + ORG_CACHE_MS });
  else entries.delete(slug);
  return org;
}

/** Forgets the store's organisations (after a change to one). */
export function forgetCachedOrgs(db: Kysely<DB>): void {
  byStore.delete(db);
}
