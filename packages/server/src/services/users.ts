import type { Kysely } from "kysely";
import type { AppContext } from "../context";
import type { DB } from "../store/schema";
import {
  findUserByEmail,
  insertUser,
  isUniqueViolation,
  updateUser,
  type User,
} from "../store/users";
import { defaultGroupId } from "./organizationSetup";
import { inviteLink } from "../auth/routes/links";
import { sendInviteEmail } from "../auth/emails";

/** Rules for users created and edited through the API (api-platform.md §7.1). */

/** Well-known disposable-email providers, refused as Redash refuses them. */
const DISPOSABLE_EMAIL_DOMAINS = new Set([
  "mailinator.com",
  "guerrillamail.com",
  "guerrillamail.net",
  "sharklasers.com",
  "10minutemail.com",
  "temp-mail.org",
  "tempmail.com",
  "yopmail.com",
  "trashmail.com",
  "throwawaymail.com",
  "getnada.com",
  "maildrop.cc",
  "dispostable.com",
  "fakeinbox.com",
]);

/** Redash's default block list; the operator's list is config.blockedEmailDomains. */
export const BLOCKED_EMAIL_DOMAINS: readonly string[] = ["qq.com"];

export const BAD_EMAIL = "Bad email address.";
export const EMAIL_TAKEN = "Email already taken.";

/** The domain part of an address, lower-cased and without a trailing dot. */
export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf("@") + 1)
    .toLowerCase()
    .replace(/\.$/, "");
}

/**
 * The stored form of an address (trimmed, lower-cased), or null when it is refused: no `@`,
 * nothing before or after it, or a disposable or blocked domain.
 */
export function normalizeEmail(
  raw: string,
  blockedDomains: readonly string[] = BLOCKED_EMAIL_DOMAINS,
): string | null {
  const email = raw.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1 || /\s/.test(email)) return null;
  const domain = emailDomain(email);
  if (DISPOSABLE_EMAIL_DOMAINS.has(domain) || blockedDomains.includes(domain)) return null;
  return email;
}

/**
 * Invites a user: emails the invitation when mail is configured and `sendEmail` holds; otherwise
 * (or when sending fails) the link is returned for the admin to pass on.
 */
export async function inviteUser(
  ctx: AppContext,
  user: User,
  inviter: User,
  sendEmail: boolean,
): Promise<{ invite_link?: string }> {
  const link = inviteLink(ctx, user);
  if (!ctx.mailer.configured || !sendEmail) return { invite_link: link };
  try {
    await sendInviteEmail(ctx, user, inviter);
    return {};
  } catch (err) {
    ctx.log.warn({ err, userId: user.id }, "could not send the invitation email");
    return { invite_link: link };
  }
}

/**
 * The user an identity provider vouched for (JWT login, api-platform.md §2.7): the organisation's
 * user with that address, or a new one (named by the address, in the default group). A pending
 * invitation counts as accepted. Null for a disabled user or a refused address.
 */
export async function userForSignIn(
  db: Kysely<DB>,
  orgId: number,
  rawEmail: string,
  blockedDomains: readonly string[],
): Promise<User | null> {
  const existing = await findUserByEmail(db, orgId, rawEmail);
  if (existing) {
    if (existing.disabled_at !== null) return null;
    if (existing.is_invitation_pending) {
      await updateUser(db, existing.id, { is_invitation_pending: false });
      return { ...existing, is_invitation_pending: false };
    }
    return existing;
  }
  const email = normalizeEmail(rawEmail, blockedDomains);
  if (!email) return null;
  try {
    return await insertUser(db, {
      orgId,
      name: email,
      email,
      passwordHash: null,
      groupIds: [await defaultGroupId(db, orgId)],
      invitationPending: false,
    });
  } catch (err) {
    // The same person's other request created the user a moment ago.
    if (isUniqueViolation(err)) return findUserByEmail(db, orgId, email);
    throw err;
  }
}
