import type { AppContext } from "../context";
import type { User } from "../store/users";
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
