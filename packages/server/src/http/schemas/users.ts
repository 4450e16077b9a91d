// Users, groups and the access grants that give users more than their groups do
// (api-platform.md §7).
import { str, int, bool, timestamp, orNull, array, object, complete } from "./basics";

const userFields = {
  id: int,
  name: str,
  email: str,
  profile_image_url: str,
  groups: array(int, "Group ids"),
  updated_at: timestamp,
  created_at: timestamp,
  disabled_at: orNull(timestamp),
  is_disabled: bool,
  active_at: orNull(timestamp),
  is_invitation_pending: bool,
  is_email_verified: bool,
  auth_type: { type: "string", enum: ["password", "external"] },
} as const;
const userRequired = Object.keys(userFields) as (keyof typeof userFields)[];

export const user = complete(userFields, "A user");
export const userWithApiKey = complete({ ...userFields, api_key: str }, "A user, with the API key");
/** In GET /api/users, `groups` lists `{id, name}` objects instead of ids. */
export const listedUser = object(
  { ...userFields, groups: array(complete({ id: int, name: str })) },
  userRequired,
  "A user",
);
/** GET /api/users/<id>: the API key only for admins and the user themself. */
export const userMaybeApiKey = object(
  { ...userFields, api_key: str },
  userRequired,
  "A user; `api_key` only in the user's own answers",
);
/** A user answer that may carry `invite_link` (when no invitation email was sent). */
export const invitedUser = object(
  { ...userFields, invite_link: str },
  userRequired,
  "The user; `invite_link` when no invitation email was sent",
);

export const group = complete(
  {
    id: int,
    name: str,
    permissions: array(str),
    type: { type: "string", enum: ["builtin", "regular"] },
    created_at: timestamp,
  },
  "A group",
);

export const aclGrant = complete(
  {
    id: int,
    object_id: int,
    object_type: { type: "string", enum: ["queries", "dashboards"] },
    access_type: { type: "string", enum: ["view", "modify", "delete"] },
    grantor: { ...int, description: "User id" },
    grantee: { ...int, description: "User id" },
  },
  "An access grant",
);
