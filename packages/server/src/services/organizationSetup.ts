import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { DEFAULT_ORG_SLUG, countOrgs, insertOrg, type Organization } from "../store/organizations";
import { findBuiltinGroup, insertGroup, insertUser, type User } from "../store/users";
import { hashPassword } from "../auth/passwords";
import { ADMIN_GROUP_PERMISSIONS, DEFAULT_GROUP_PERMISSIONS } from "@sightline/core";

export interface SetupInput {
  orgName: string;
  name: string;
  email: string;
  password: string;
}

export class AlreadySetUpError extends Error {}

/**
 * First run: the organisation, its built-in groups and the first admin. Works only while no
 * organisation exists (SECURITY.md rule 6).
 */
export async function setUpOrganization(
  db: Kysely<DB>,
  input: SetupInput,
): Promise<{ org: Organization; user: User }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (tx) => {
    if ((await countOrgs(tx)) > 0) throw new AlreadySetUpError("Sightline is already set up.");
    const org = await insertOrg(tx, input.orgName, DEFAULT_ORG_SLUG);
    const admin = await insertGroup(tx, org.id, "admin", "builtin", [...ADMIN_GROUP_PERMISSIONS]);
    const everyone = await insertGroup(tx, org.id, "default", "builtin", [
      ...DEFAULT_GROUP_PERMISSIONS,
    ]);
    const user = await insertUser(tx, {
      orgId: org.id,
      name: input.name,
      email: input.email,
      passwordHash,
      groupIds: [admin.id, everyone.id],
      invitationPending: false,
    });
    return { org, user };
  });
}

export async function defaultGroupId(db: Kysely<DB>, orgId: number): Promise<number> {
  const group = await findBuiltinGroup(db, orgId, "default");
  if (!group) throw new Error("The organisation has no default group");
  return group.id;
}

export async function adminGroupId(db: Kysely<DB>, orgId: number): Promise<number> {
  const group = await findBuiltinGroup(db, orgId, "admin");
  if (!group) throw new Error("The organisation has no admin group");
  return group.id;
}
