// The organisation-wide answers: events, settings, the client config and the session.
import { str, int, timestamp, anyObject, orNull, array, object, complete } from "./basics";

export const event = complete(
  {
    org_id: int,
    user_id: orNull(int),
    action: str,
    object_type: str,
    object_id: orNull(str),
    created_at: timestamp,
    user_name: str,
    browser: str,
    location: str,
    details: anyObject,
  },
  "An event",
);

/** `{settings}`: every effective setting plus `auth_google_apps_domains`. */
export const settingsResponse = complete(
  { settings: { ...anyObject, description: "Setting name to value (api-platform.md §8)" } },
  "The organisation's settings",
);

/** `{org_slug, client_config}` of /api/config, which /api/session extends. */
const configFields = {
  org_slug: str,
  client_config: { ...anyObject, description: "The web app's settings (api-platform.md §4.1)" },
} as const;
export const configResponse = complete(configFields, "Client config");
export const sessionResponse = complete(
  {
    ...configFields,
    user: object(
      {
        id: int,
        name: str,
        email: str,
        profile_image_url: str,
        groups: array(int),
        permissions: array(str),
        apiKey: { ...str, description: "Only for query and dashboard API keys" },
      },
      ["permissions"],
      "The signed-in user; for an object's API key only `permissions` ([]) and `apiKey`",
    ),
    messages: array(str, 'E.g. "email-not-verified"'),
  },
  "The session",
);
