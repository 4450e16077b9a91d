// Dashboards and widgets (api-platform.md §6.4, §6.5), and a shared dashboard's public form.
import {
  str,
  int,
  bool,
  timestamp,
  anyObject,
  anyValue,
  orNull,
  array,
  object,
  complete,
} from "./basics";
import { query } from "./queries";
import { visualizationFields, visualization } from "./visualizations";

export const widget = object(
  {
    id: int,
    width: int,
    options: { ...anyObject, description: "Stored as given: position, parameterMappings, …" },
    dashboard_id: int,
    text: { ...orNull(str), description: "Absent on restricted widgets" },
    updated_at: timestamp,
    created_at: timestamp,
    visualization: {
      ...complete({ ...visualization.properties, query }),
      description: "Visualization widgets only, with their query",
    },
    restricted: {
      type: "boolean",
      enum: [true],
      description:
        "Present when the caller may not view the widget's query (then no text or visualization)",
    },
  },
  ["id", "width", "options", "dashboard_id", "updated_at", "created_at"],
  "A widget",
);

export const dashboard = object(
  {
    id: int,
    slug: { ...str, description: "Of the current name" },
    name: str,
    user_id: int,
    user: orNull(complete({ id: int, name: str, email: str, profile_image_url: str })),
    layout: { ...anyValue, description: "Legacy; stored as given" },
    dashboard_filters_enabled: bool,
    widgets: { ...orNull(array(widget)), description: "null in lists and the create answer" },
    options: anyObject,
    is_archived: bool,
    is_draft: bool,
    tags: array(str),
    updated_at: timestamp,
    created_at: timestamp,
    version: { ...int, description: "Incremented by every save" },
    is_favorite: bool,
    starred_at: { ...timestamp, description: "Lists, when favorited" },
    can_edit: { ...bool, description: "GET one only" },
    public_url: { ...str, description: "GET one only, when shared, for its owner and admins" },
    api_key: { ...str, description: "GET one only, when shared, for its owner and admins" },
  },
  [
    "id",
    "slug",
    "name",
    "user_id",
    "user",
    "layout",
    "dashboard_filters_enabled",
    "widgets",
    "options",
    "is_archived",
    "is_draft",
    "tags",
    "updated_at",
    "created_at",
    "version",
  ],
  "A dashboard",
);

/** A shared dashboard's public form (§6.6): no ids of visualizations, no query text. */
export const publicDashboard = complete(
  {
    name: str,
    layout: anyValue,
    dashboard_filters_enabled: bool,
    updated_at: timestamp,
    created_at: timestamp,
    options: anyObject,
    widgets: array(
      object(
        {
          id: int,
          width: int,
          options: anyObject,
          text: orNull(str),
          updated_at: timestamp,
          created_at: timestamp,
          visualization: object({
            ...visualizationFields,
            query: object({ id: int, name: str, description: orNull(str), options: anyObject }),
          }),
        },
        ["id", "width", "options", "text", "updated_at", "created_at"],
      ),
    ),
  },
  "A shared dashboard",
);
