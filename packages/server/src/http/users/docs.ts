// The OpenAPI documentation of the user routes (the shapes are in ../schemas).
import * as S from "../schemas";

const tags = ["users"];

const userAction = (summary: string, answer: object, statuses = [400, 403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: answer, ...S.errors(...statuses) },
});

export const docs = {
  list: {
    tags,
    summary: "List users",
    querystring: S.object({
      q: { ...S.str, description: "Part of a name or email" },
      disabled: { ...S.str, description: "true/false (default false): disabled users only" },
      pending: { ...S.str, description: "true/false: only pending invitations, or none" },
      order: {
        ...S.str,
        description: "name, active_at, created_at or groups; `-` first for descending",
      },
      ...S.pageQuerystring,
    }),
    response: { 200: S.paginated(S.listedUser, "A page of users"), ...S.errors(400, 403, 404) },
  },
  create: {
    tags,
    summary: "Invite a new user (admin)",
    querystring: S.object({
      no_invite: { ...S.str, description: "A flag: present = send no email" },
    }),
    body: S.object({ name: S.str, email: S.str }, ["name", "email"]),
    response: { 200: S.invitedUser, ...S.errors(400, 403, 404, 429) },
  },
  get: userAction("Get a user", S.userMaybeApiKey, [403, 404]),
  update: {
    ...userAction("Update a user (admin or the user)", S.userMaybeApiKey, [400, 403, 404, 429]),
    body: S.object({
      name: S.str,
      email: S.str,
      password: { ...S.str, description: "Needs old_password" },
      old_password: S.str,
      group_ids: { ...S.array(S.int), description: "Admins only; an empty list changes nothing" },
    }),
  },
  delete: userAction("Delete a pending user (admin)", S.user),
  invite: userAction("Send an invitation again (admin)", S.invitedUser),
  resetPassword: userAction(
    "Send a password reset email (admin)",
    S.object({ reset_link: S.str }, ["reset_link"], "The reset link"),
  ),
  regenerateApiKey: userAction("Give a user a new API key", S.userMaybeApiKey),
  disable: userAction("Disable a user (admin)", S.user),
  enable: userAction("Enable a disabled user (admin)", S.userMaybeApiKey),
};
