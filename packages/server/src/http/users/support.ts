// What the user routes share: loading a user of the caller's organisation, and whether the
// caller may see a user's API key.
import type { AppContext } from "../../context";
import type { Identity } from "../../auth/identity";
import { maySeeApiKey } from "../../policies";
import { findUserById, type User } from "../../store/users";
import { notFound } from "../errors";

export type IdParams = { Params: { id: string } };

/** The helpers of the user routes, on this app's database. */
export function userSupport(ctx: AppContext) {
  const db = ctx.database.db;
  const keyVisible = (identity: Identity, userId: number) =>
    maySeeApiKey(identity, userId, ctx.config.showApiKeysToAdmins);

  const userOr404 = async (orgId: number, id: number): Promise<User> => {
    const user = await findUserById(db, orgId, id);
    if (!user) throw notFound();
    return user;
  };

  return { keyVisible, userOr404 };
}

export type UserSupport = ReturnType<typeof userSupport>;
