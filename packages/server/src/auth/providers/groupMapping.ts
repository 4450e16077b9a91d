/**
 * Group mapping for single sign-on: the provider's group names (an OIDC claim, a SAML attribute, an
 * LDAP attribute) to Sightline groups, from the organisation's setting `auth_sso_group_mapping`
 * (docs/single-sign-on.md, "Group mapping"). Mapping is on while the list is not empty; then at
 * every sign-in the user's groups become the default group plus the mapped ones. Names match
 * after trimming, without regard to case. A mapped group that no longer exists is left out, with
 * a log line.
 */
import type { SsoGroupMappingRule } from "@sightline/core";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { orgSetting } from "../../services/orgSettings";
import type { DB } from "../../store/schema";
import type { Organization } from "../../store/organizations";
import { groupsByIds, type Group } from "../../store/users";
import type { JustInTimeOptions } from "./justInTime";

/** The longest provider group name and the most rows the setting accepts. */
export const MAX_PROVIDER_GROUP_LENGTH = 256;
export const MAX_GROUP_MAPPING_RULES = 200;

const key = (name: string) => name.trim().toLowerCase();

/** The organisation's mapping rules (an empty list when off or malformed). */
export function groupMappingRules(org: Organization): SsoGroupMappingRule[] {
  const rules: unknown = orgSetting(org, "auth_sso_group_mapping");
  if (!Array.isArray(rules)) return [];
  return rules.filter(
    (r): r is SsoGroupMappingRule =>
      typeof r === "object" &&
      r !== null &&
      typeof (r as SsoGroupMappingRule).provider_group === "string" &&
      Number.isInteger((r as SsoGroupMappingRule).group_id),
  );
}

/** The group ids the rules give for the provider's group names, in rule order, without repeats. */
export function mappedGroupIds(rules: readonly SsoGroupMappingRule[], groups: string[]): number[] {
  const names = new Set(groups.map(key));
  const ids = rules.filter((r) => names.has(key(r.provider_group))).map((r) => r.group_id);
  return [...new Set(ids)];
}

/** The existing groups of the organisation the provider's groups map to; unknown ids logged. */
export async function mappedGroups(
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  org: Organization,
  rules: readonly SsoGroupMappingRule[],
  groups: string[],
): Promise<Group[]> {
  const ids = mappedGroupIds(rules, groups);
  if (ids.length === 0) return [];
  const found = await groupsByIds(db, org.id, ids);
  const missing = ids.filter((id) => !found.some((g) => g.id === id));
  if (missing.length > 0) {
    log.warn(
      { groupIds: missing },
      "SSO group mapping names groups that no longer exist; they are ignored",
    );
  }
  return found;
}

/** The `mapGroups` option of userForIdentity for this organisation, or undefined when off. */
export function groupMappingFor(
  ctx: AppContext,
  org: Organization,
): JustInTimeOptions["mapGroups"] | undefined {
  const rules = groupMappingRules(org);
  if (rules.length === 0) return undefined;
  return async (groups) =>
    (await mappedGroups(ctx.database.db, ctx.log, org, rules, groups)).map((g) => g.id);
}
