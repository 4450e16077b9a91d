import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { badRequest } from "./errors";
import { bodyObject } from "./input";
import * as S from "./schemas";
import { recordRequestEvent } from "./requestEvents";
import { requireAdmin, requireLogin } from "../policies";
import { effectiveSettings, googleAppsDomains, orgSetting } from "../services/orgSettings";
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  GOOGLE_APPS_DOMAINS_KEY,
  isOrganizationSettingKey,
  type OrganizationSettingKey,
} from "@sightline/core";
import { saveOrgSettings, type Organization } from "../store/organizations";
import { checkGroupMapping } from "./settingsGroupMapping";
import { objectCounters } from "../store/groups";
import { setupDemoCounters } from "../services/setupDemoCounters";

export const PASSWORD_LOGIN_REQUIRED =
  "Password login can't be turned off unless another login method (Google, OpenID Connect, LDAP or SAML) is enabled.";

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["settings"];

const docs = {
  get: {
    tags,
    summary: "Get the organisation's settings (admin)",
    response: { 200: S.settingsResponse, ...S.errors(403, 404) },
  },
  update: {
    tags,
    summary: "Change some of the organisation's settings (admin)",
    body: { ...S.anyObject, description: "Setting name to its new value; unknown names are a 400" },
    response: { 200: S.settingsResponse, ...S.errors(400, 403, 404) },
  },
  status: {
    tags,
    summary: "Counts of the objects the caller can see (home page)",
    response: {
      200: S.object(
        {
          object_counters: S.object(
            { users: S.int, alerts: S.int, data_sources: S.int, queries: S.int, dashboards: S.int },
            ["users", "alerts", "data_sources", "queries", "dashboards"],
          ),
          demo_counters: S.object(
            { queries: S.int, dashboards: S.int },
            ["queries", "dashboards"],
            "Sightline's own: how many of the counted queries and dashboards are setup's Demo objects",
          ),
        },
        ["object_counters", "demo_counters"],
        "Object counters",
      ),
      ...S.errors(404),
    },
  },
};

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** Checks a value against the type of the setting's default (booleans, strings, string lists). */
function checkSettingValue(key: OrganizationSettingKey, value: unknown): void {
  if (key === "beacon_consent") {
    if (value !== null && typeof value !== "boolean") {
      throw badRequest(`'${key}' must be true, false or null.`);
    }
    return;
  }
  const fallback: unknown = DEFAULT_ORGANIZATION_SETTINGS[key];
  if (Array.isArray(fallback)) {
    if (!isStringList(value)) throw badRequest(`'${key}' must be a list of strings.`);
  } else if (typeof value !== typeof fallback) {
    throw badRequest(`'${key}' must be a ${typeof fallback}.`);
  }
}

/**
 * Whether the organisation still has a way to sign in besides passwords (spec 2 §5: Google, LDAP
 * or SAML; Sightline adds OpenID Connect). The web app's settings page applies the same rule
 * (packages/web/src/features/settings/authRules.ts).
 */
function hasOtherLoginMethod(ctx: AppContext, org: Organization): boolean {
  const { google, oidc, ldap } = ctx.config;
  return (
    google.enabled || oidc.enabled || ldap.enabled || orgSetting(org, "auth_saml_enabled") === true
  );
}

/** Organisation settings and the home page's counters (api-platform.md §7.3, §8). */
export async function settingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  app.get("/api/settings/organization", { schema: docs.get }, async (request) => {
    const { org } = requireAdmin(request);
    return { settings: effectiveSettings(org) };
  });

  app.post("/api/settings/organization", { schema: docs.update }, async (request) => {
    const { org } = requireAdmin(request);
    const body = bodyObject(request);
    const stored = { ...((org.settings.settings as Record<string, unknown> | undefined) ?? {}) };
    const next: Record<string, unknown> = { ...org.settings, settings: stored };
    const newValues: Record<string, unknown> = {};
    const previousValues: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key === GOOGLE_APPS_DOMAINS_KEY) {
        if (!isStringList(value)) throw badRequest(`'${key}' must be a list of strings.`);
        previousValues[key] = googleAppsDomains(org);
        next.google_apps_domains = value.map((d) => d.trim().toLowerCase()).filter(Boolean);
      } else if (key === "auth_sso_group_mapping") {
        previousValues[key] = orgSetting(org, key);
        stored[key] = await checkGroupMapping(db, org.id, value);
      } else if (isOrganizationSettingKey(key)) {
        checkSettingValue(key, value);
        previousValues[key] = orgSetting(org, key);
        stored[key] = value;
      } else {
        throw badRequest(`Unknown setting: ${key}.`);
      }
      newValues[key] = value;
    }
    const updated: Organization = { ...org, settings: next };
    if (orgSetting(updated, "auth_password_login_enabled") === false) {
      if (!hasOtherLoginMethod(ctx, updated)) throw badRequest(PASSWORD_LOGIN_REQUIRED);
    }
    if (Object.keys(newValues).length > 0) {
      await saveOrgSettings(db, org.id, next);
      await recordRequestEvent(ctx, request, "edit", "settings", org.id, {
        new_values: newValues,
        previous_values: previousValues,
      });
    }
    return { settings: effectiveSettings(updated) };
  });

  app.get("/api/organization/status", { schema: docs.status }, async (request) => {
    const { identity, org } = requireLogin(request);
    return {
      object_counters: await objectCounters(db, org.id, identity.groupIds),
      demo_counters: await setupDemoCounters(db, org.id, identity.groupIds),
    };
  });
}
