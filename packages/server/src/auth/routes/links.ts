// The signed links that emails carry to the invite, reset and verify pages.
import type { AppContext } from "../../context";
import type { User } from "../../store/users";
import { makeToken } from "../tokens";

export function inviteLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/invite/${makeToken(ctx.keys.tokens, "invite", user.id, user.session_token)}`;
}

export function resetLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/reset/${makeToken(ctx.keys.tokens, "reset", user.id, user.session_token)}`;
}

export function verifyLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/verify/${makeToken(ctx.keys.tokens, "verify", user.id, user.session_token)}`;
}
