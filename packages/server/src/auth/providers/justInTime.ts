/**
 * The one path from an outside identity (a proxy header, and later OpenID Connect, SAML, LDAP) to
 * a Sightline user, shared by every sign-in method (docs/single-sign-on.md, "SSO rules"):
 * - the first sign-in creates the user, named as the provider names them, in the default group;
 * - an existing user with that e-mail (a password user too) is the same account, and only when
 *   the provider says it verified the address; an unverified address signs nobody in;
 * - a disabled user is refused, whatever the method; a pending invitation counts as accepted;
 * - an optional group mapping (`mapGroups`) turns the provider's groups into Sightline group ids,
 *   applied at every sign-in on top of the default group.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../store/schema";
import {
  findUserByEmail,
  insertUser,
  isUniqueViolation,
  setUserGroups,
  updateUser,
  type User,
} from "../../store/users";
import { defaultGroupId } from "../../services/organizationSetup";
import { normalizeEmail } from "../../services/users";

/** Who the identity provider says signed in. */
export interface OutsideIdentity {
  email: string;
  /** Display name; empty when the provider gives none (the e-mail is used then). */
  name: string;
  /** The provider vouches that the person owns the address. */
  verifiedEmail: boolean;
  /** Group names from the provider (a claim or attribute), for `mapGroups`. */
  groups?: string[];
}

export interface JustInTimeOptions {
  /** Email domains refused for new users (config.blockedEmailDomains). */
  blockedDomains: readonly string[];
  /**
   * Sightline group ids for the provider's groups, or null to leave the user's groups alone. When
   * given, the user's groups become the default group plus these, at every sign-in.
   */
  mapGroups?: (groups: string[]) => Promise<number[] | null>;
}

export type RefusalReason = "invalid_email" | "unverified_email" | "disabled";

export type JustInTimeResult =
  { ok: true; user: User; created: boolean } | { ok: false; reason: RefusalReason };

export async function userForIdentity(
  db: Kysely<DB>,
  orgId: number,
  identity: OutsideIdentity,
  options: JustInTimeOptions,
): Promise<JustInTimeResult> {
  const email = normalizeEmail(identity.email, options.blockedDomains);
  // An existing user may have an address a blocked-domain rule added later would refuse; they
  // stay who they are, so look them up before the domain rules.
  const existing = await findUserByEmail(db, orgId, identity.email);
  if (!existing && !email) return { ok: false, reason: "invalid_email" };
  if (!identity.verifiedEmail) return { ok: false, reason: "unverified_email" };
  const name = identity.name.trim();

  let user: User;
  let created = false;
  if (existing) {
    if (existing.disabled_at !== null) return { ok: false, reason: "disabled" };
    const changes: { is_invitation_pending?: boolean; name?: string } = {};
    if (existing.is_invitation_pending) changes.is_invitation_pending = false;
    // A provider that only knows the address does not rename a user who has a name.
    if (name && name.toLowerCase() !== existing.email && name !== existing.name)
      changes.name = name;
    if (Object.keys(changes).length > 0) await updateUser(db, existing.id, changes);
    user = { ...existing, ...changes };
  } else {
    const found = await createUser(db, orgId, email!, name || email!);
    if (!found) return { ok: false, reason: "invalid_email" };
    if (found.disabled_at !== null) return { ok: false, reason: "disabled" };
    user = found;
    created = true;
  }

  if (options.mapGroups && identity.groups) {
    const mapped = await options.mapGroups(identity.groups);
    if (mapped) {
      const groupIds = [...new Set([await defaultGroupId(db, orgId), ...mapped])].sort(
        (a, b) => a - b,
      );
      await setUserGroups(db, user.id, groupIds);
      user = { ...user, group_ids: groupIds };
    }
  }
  return { ok: true, user, created };
}

async function createUser(
  db: Kysely<DB>,
  orgId: number,
  email: string,
  name: string,
): Promise<User | null> {
  try {
    return await insertUser(db, {
      orgId,
      name,
      email,
      passwordHash: null,
      groupIds: [await defaultGroupId(db, orgId)],
      invitationPending: false,
    });
  } catch (err) {
    // The same person's other sign-in created the user a moment ago.
    if (isUniqueViolation(err)) return findUserByEmail(db, orgId, email);
    throw err;
  }
}
