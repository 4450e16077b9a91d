import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import type { Organization } from "../store/organizations";
import { orgSetting } from "../services/orgSettings";
import { requireLogin } from "../policies";
import { presentSessionUser } from "../presenters/users";
import { SERVER_VERSION } from "../version";
import * as S from "./schemas";
import {
  DEFAULT_DASHBOARD_REFRESH_INTERVALS,
  DEFAULT_ORGANIZATION_SETTINGS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_PAGE_SIZE_OPTIONS,
  DEFAULT_QUERY_REFRESH_INTERVALS,
  DEFAULT_TABLE_CELL_MAX_JSON_SIZE,
  dateFormatList,
  timeFormatList,
  type OrganizationSettingKey,
  type OrganizationSettings,
} from "@sightline/core";

/** client_config of /api/config and /api/session (api-platform.md §4.1). */
export function clientConfig(
  ctx: AppContext,
  org: Organization | null,
  identity: Identity,
): Record<string, unknown> {
  const setting = <K extends OrganizationSettingKey>(key: K): OrganizationSettings[K] =>
    org ? orgSetting(org, key) : DEFAULT_ORGANIZATION_SETTINGS[key];
  const dateFormat = setting("date_format");
  const timeFormat = setting("time_format");
  const config: Record<string, unknown> = {
    allowScriptsInUserInput: false,
    showPermissionsControl: setting("feature_show_permissions_control"),
    hidePlotlyModeBar: setting("hide_plotly_mode_bar"),
    disablePublicUrls: setting("disable_public_urls"),
    multiByteSearchEnabled: setting("multi_byte_search_enabled"),
    gravatarAvatars: setting("feature_gravatar_avatars"),
    allowCustomJSVisualizations: ctx.config.allowCustomJsVisualizations,
    // Sightline's own key: the default tile server of map visualizations ("" for none).
    mapTileUrl: ctx.config.mapTileUrl,
    autoPublishNamedQueries: ctx.config.autoPublishNamedQueries,
    disablePublish: ctx.config.disablePublish,
    extendedAlertOptions: false,
    mailSettingsMissing: !ctx.mailer.configured,
    dashboardRefreshIntervals: DEFAULT_DASHBOARD_REFRESH_INTERVALS,
    queryRefreshIntervals: DEFAULT_QUERY_REFRESH_INTERVALS,
    googleLoginEnabled: ctx.config.google.enabled,
    ldapLoginEnabled: ctx.config.ldap.enabled,
    oidcLoginEnabled: ctx.config.oidc.enabled,
    pageSize: DEFAULT_PAGE_SIZE,
    pageSizeOptions: DEFAULT_PAGE_SIZE_OPTIONS,
    tableCellMaxJSONSize: DEFAULT_TABLE_CELL_MAX_JSON_SIZE,
    basePath: `${ctx.config.baseUrl}/`,
    dateFormat,
    dateFormatList: dateFormatList(),
    timeFormatList: timeFormatList(),
    dateTimeFormat: `${dateFormat} ${timeFormat}`,
    integerFormat: setting("integer_format"),
    floatFormat: setting("float_format"),
    thousandsSeparator: setting("thousands_separator"),
    decimalSeparator: setting("decimal_separator"),
    nullValue: setting("null_value"),
  };
  if (identity.kind === "user") {
    config.version = SERVER_VERSION;
    config.newVersionAvailable = false;
    if (identity.permissions.includes("admin") && org && setting("beacon_consent") === null) {
      config.showBeaconConsentMessage = true;
    }
  }
  return config;
}

const docs = {
  config: {
    tags: ["session"],
    summary: "The web app's settings (no sign-in needed)",
    response: { 200: S.configResponse },
  },
  session: {
    tags: ["session"],
    summary: "The signed-in user, with the web app's settings",
    response: { 200: S.sessionResponse, ...S.errors(404) },
  },
};

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/config", { schema: docs.config }, async (request: FastifyRequest) => {
    const { org, identity } = request.auth;
    return { org_slug: org?.slug ?? "default", client_config: clientConfig(ctx, org, identity) };
  });

  app.get("/api/session", { schema: docs.session }, async (request: FastifyRequest) => {
    const { identity, org } = requireLogin(request);
    const base = { org_slug: org.slug, client_config: clientConfig(ctx, org, identity) };
    if (identity.kind === "api_key") {
      return { ...base, user: { permissions: [], apiKey: identity.apiKey }, messages: [] };
    }
    const messages: string[] = [];
    if (!identity.user.is_email_verified) messages.push("email-not-verified");
    return { ...base, user: presentSessionUser(identity), messages };
  });
}
