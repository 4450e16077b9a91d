/**
 * The organisation setting `auth_sso_group_mapping` checked at the HTTP edge: a list of
 * `{provider_group, group_id}` rows, each a non-empty name and a group of this organisation.
 * Names are trimmed and exact repeats dropped. See docs/single-sign-on.md, "Group mapping".
 */
import type { SsoGroupMappingRule } from "@sightline/core";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { groupsByIds } from "../store/users";
import { MAX_GROUP_MAPPING_RULES, MAX_PROVIDER_GROUP_LENGTH } from "../auth/providers/groupMapping";
import { badRequest } from "./errors";

const KEY = "auth_sso_group_mapping";

function checkRule(value: unknown, index: number): SsoGroupMappingRule {
  const where = `'${KEY}' row ${index + 1}`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(`${where} must be an object with provider_group and group_id.`);
  }
  const row = value as Record<string, unknown>;
  const extra = Object.keys(row).filter((k) => k !== "provider_group" && k !== "group_id");
  if (extra.length > 0) throw badRequest(`${where} has an unknown field: ${extra[0]}.`);
  const name = typeof row.provider_group === "string" ? row.provider_group.trim() : "";
  if (name === "") throw badRequest(`${where} needs a provider group name.`);
  if (name.length > MAX_PROVIDER_GROUP_LENGTH) {
    throw badRequest(
      `${where}: the provider group name is longer than ${MAX_PROVIDER_GROUP_LENGTH}.`,
    );
  }
  const id = row.group_id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw badRequest(`${where} needs a Sightline group (group_id).`);
  }
  return { provider_group: name, group_id: id };
}

/** The rows to store, or a 400 naming the first problem. */
export async function checkGroupMapping(
  db: Kysely<DB>,
  orgId: number,
  value: unknown,
): Promise<SsoGroupMappingRule[]> {
  if (!Array.isArray(value)) throw badRequest(`'${KEY}' must be a list.`);
  if (value.length > MAX_GROUP_MAPPING_RULES) {
    throw badRequest(`'${KEY}' may have at most ${MAX_GROUP_MAPPING_RULES} rows.`);
  }
  const rules: SsoGroupMappingRule[] = [];
  const seen = new Set<string>();
  value.forEach((row, index) => {
    const rule = checkRule(row, index);
    const key = `${rule.provider_group.toLowerCase()}\n${rule.group_id}`;
    if (seen.has(key)) return;
    seen.add(key);
    rules.push(rule);
  });
  const ids = [...new Set(rules.map((r) => r.group_id))];
  const found = new Set((await groupsByIds(db, orgId, ids)).map((g) => g.id));
  const unknown = ids.find((id) => !found.has(id));
  if (unknown !== undefined) throw badRequest(`'${KEY}': there is no group ${unknown}.`);
  return rules;
}
