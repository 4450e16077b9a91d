import type { AppContext } from "../context";
import type { User } from "../store/users";
import { inviteLink, resetLink, verifyLink } from "./routes/links";

/** The emails of the sign-in flows (subjects as Redash's, with the product name). */

export async function sendInviteEmail(ctx: AppContext, user: User, inviter: User): Promise<void> {
  const link = inviteLink(ctx, user);
  await ctx.mailer.send({
    to: user.email,
    subject: `${inviter.name} invited you to join Sightline`,
    text: `Hi ${user.name},\n\n${inviter.name} invited you to join Sightline. Set your password here:\n${link}\n\nThe link is valid for 7 days.`,
  });
}

export async function sendResetEmail(ctx: AppContext, user: User): Promise<string> {
  const link = resetLink(ctx, user);
  await ctx.mailer.send({
    to: user.email,
    subject: "Reset your password",
    text: `Hi ${user.name},\n\nYou can set a new password for Sightline here:\n${link}\n\nIf you did not ask for this, ignore this email.`,
  });
  return link;
}

export async function sendDisabledAccountEmail(ctx: AppContext, user: User): Promise<void> {
  await ctx.mailer.send({
    to: user.email,
    subject: "Your Sightline account is disabled",
    text: `Hi ${user.name},\n\nYour Sightline account is disabled, so its password cannot be reset. Please contact your administrator.`,
  });
}

export async function sendVerificationEmail(ctx: AppContext, user: User): Promise<void> {
  await ctx.mailer.send({
    to: user.email,
    subject: `${user.name}, please verify your email address`,
    text: `Hi ${user.name},\n\nPlease verify your email address:\n${verifyLink(ctx, user)}`,
  });
}
