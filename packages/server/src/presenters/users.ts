import crypto from "node:crypto";
import type { UserIdentity } from "../auth/identity";
import type { Group, User } from "../store/users";

/**
 * The JSON shapes of users (api-platform.md §6.1). The only way a user leaves the server: the
 * password hash and session token never appear; the API key only where the caller may see it.
 */
const DISABLED_AVATAR = "/static/images/avatar.svg";

export function profileImageUrl(user: User): string {
  if (user.disabled_at !== null) return DISABLED_AVATAR;
  if (user.profile_image_url) return user.profile_image_url;
  return gravatarUrl(user.email.toLowerCase());
}

/**
 * Gravatar addresses by e-mail, kept because a dashboard or a list shows the same few users many
 * times over (a 50-widget dashboard hashed 100 e-mails per read). Bounded: emptied when full.
 */
const gravatarUrls = new Map<string, string>();
const MAX_GRAVATAR_URLS = 10_000;

function gravatarUrl(email: string): string {
  let url = gravatarUrls.get(email);
  if (url === undefined) {
    const hash = crypto.createHash("md5").update(email).digest("hex");
    url = `https://www.gravatar.com/avatar/${hash}?s=40&d=identicon`;
    if (gravatarUrls.size >= MAX_GRAVATAR_URLS) gravatarUrls.clear();
    gravatarUrls.set(email, url);
  }
  return url;
}

export interface PresentedUser {
  id: number;
  name: string;
  email: string;
  profile_image_url: string;
  groups: number[] | { id: number; name: string }[];
  updated_at: string;
  created_at: string;
  disabled_at: string | null;
  is_disabled: boolean;
  active_at: string | null;
  is_invitation_pending: boolean;
  is_email_verified: boolean;
  auth_type: "password" | "external";
  api_key?: string;
}

export function presentUser(
  user: User,
  options: { withApiKey?: boolean; groups?: Group[] } = {},
): PresentedUser {
  const out: PresentedUser = {
    id: user.id,
    name: user.name,
    email: user.email,
    profile_image_url: profileImageUrl(user),
    groups: options.groups
      ? options.groups
          .filter((g) => user.group_ids.includes(g.id))
          .map((g) => ({ id: g.id, name: g.name }))
      : user.group_ids,
    updated_at: user.updated_at,
    created_at: user.created_at,
    disabled_at: user.disabled_at,
    is_disabled: user.disabled_at !== null,
    active_at: user.active_at,
    is_invitation_pending: user.is_invitation_pending,
    is_email_verified: user.is_email_verified,
    auth_type: user.password_hash ? "password" : "external",
  };
  if (options.withApiKey) out.api_key = user.api_key;
  return out;
}

/** The `user` object of /api/session. */
export function presentSessionUser(identity: UserIdentity) {
  const { user } = identity;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile_image_url: profileImageUrl(user),
    groups: identity.groupIds,
    permissions: identity.permissions,
  };
}
