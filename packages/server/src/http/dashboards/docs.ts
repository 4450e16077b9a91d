// The OpenAPI documentation of the dashboard routes (the shapes are in ../schemas).
import * as S from "../schemas";
import { MAX_NAME_LENGTH } from "./bodyFields";

const tags = ["dashboards"];

const listSchema = (summary: string) => ({
  tags,
  summary,
  querystring: S.object({
    q: { ...S.str, description: "Part of the name (case-insensitive)" },
    tags: S.array(S.str, "Only dashboards carrying all these tags"),
    order: { ...S.str, description: "name, created_at or starred_at; `-` first for descending" },
    ...S.pageQuerystring,
  }),
  response: { 200: S.paginated(S.dashboard, "A page of dashboards"), ...S.errors(400, 403, 404) },
});

const saveFields = {
  name: { ...S.str, maxLength: MAX_NAME_LENGTH },
  layout: { ...S.anyValue, description: "Legacy; stored as given" },
  version: { ...S.orNull(S.int), description: "When given, must match the stored version" },
  tags: S.array(S.str),
  is_draft: S.bool,
  is_archived: S.bool,
  dashboard_filters_enabled: S.bool,
  options: S.anyObject,
};

const oneDashboard = (summary: string, statuses = [403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.dashboard, ...S.errors(...statuses) },
});

const answersNull = (summary: string) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.nullBody, ...S.errors(403, 404) },
});

export const docs = {
  list: listSchema("List the dashboards the caller may see"),
  my: listSchema("List the caller's dashboards (drafts included)"),
  favorites: listSchema("List the caller's favorite dashboards"),
  archivedList: listSchema("List the archived dashboards the caller may see"),
  recent: {
    tags,
    summary: "The dashboards the caller viewed most recently (at most 20)",
    response: { 200: S.array(S.dashboard, "Dashboards, newest view first"), ...S.errors(403, 404) },
  },
  tags: {
    tags,
    summary: "Tags of the visible dashboards, with counts",
    response: {
      200: S.object(
        { tags: S.array(S.object({ name: S.str, count: S.int }, ["name", "count"])) },
        ["tags"],
        "Tags by name",
      ),
      ...S.errors(403, 404),
    },
  },
  create: {
    tags,
    summary: "Create a dashboard (a draft)",
    body: S.object({ name: saveFields.name }, ["name"]),
    response: { 200: S.dashboard, ...S.errors(400, 403, 404) },
  },
  get: {
    ...oneDashboard("Get a dashboard with its widgets"),
    params: S.params({
      id: {
        ...S.str,
        description:
          "The id; with `legacy`, the slug stored at creation; when not a number, the slug a listing shows (else the stored one)",
      },
    }),
    querystring: S.object({
      legacy: { ...S.str, description: "A flag: present = look up by slug" },
    }),
  },
  save: {
    ...oneDashboard("Save a dashboard (partial update)", [400, 403, 404, 409]),
    body: S.object(saveFields),
  },
  archive: oneDashboard("Archive a dashboard"),
  fork: oneDashboard(
    "Fork a dashboard, with the widgets the caller may view (400 beyond the widget limit)",
    [400, 403, 404],
  ),
  share: {
    tags,
    summary: "Share a dashboard: its public link (admin or owner)",
    description:
      "Refused (400) while a widget shows a query with text parameters. The link acts with the current rights of the dashboard's owner and stops while the owner is disabled or the dashboard archived.",
    params: S.idParams,
    response: {
      200: S.object({ public_url: S.str, api_key: S.str }, ["public_url", "api_key"], "The link"),
      ...S.errors(400, 403, 404),
    },
  },
  unshare: answersNull("Stop sharing a dashboard (admin or owner)"),
  public: {
    tags,
    summary: "A shared dashboard, read with its share key",
    params: S.params({ token: { ...S.str, description: "The share key" } }),
    response: { 200: S.publicDashboard, ...S.errors(400, 404) },
  },
  addFavorite: answersNull("Add a dashboard to the caller's favorites"),
  removeFavorite: answersNull("Remove a dashboard from the caller's favorites"),
};
