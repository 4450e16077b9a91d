/**
 * SAML single logout (SP-initiated, HTTP-Redirect). A SAML sign-in leaves a cookie (encrypted,
 * sent only to /logout) with the NameID and SessionIndex the assertion gave; Sightline's /logout
 * ends its own session first and then, when the identity provider's metadata names a
 * SingleLogoutService (HTTP-Redirect), sends the browser there with a LogoutRequest
 * (node-saml's getLogoutUrlAsync). The provider comes back to GET /saml/logout with its
 * LogoutResponse: it must carry the provider's redirect signature, and whatever it says the browser
 * goes to the login page (never to a RelayState or other address). Without the cookie, or for a
 * static provider (no logout address in the settings), /logout is Sightline's alone.
 * See docs/single-sign-on.md, "Logging out".
 */
import { SAML, ValidateInResponseTo, type Profile } from "@node-saml/node-saml";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import { orgSetting } from "../../services/orgSettings";
import { findOrgBySlug, type Organization } from "../../store/organizations";
import { decrypt, encrypt } from "../encryption";
import { flowKey } from "./oidcFlow";
import { signingOptions } from "./samlConfig";
import type { IdentityProvider, IdentityProviders } from "./samlIdp";

const COOKIE = "saml_logout";
const COOKIE_PATH = "/logout";

interface LogoutData {
  org: string;
  nameID: string;
  nameIDFormat: string;
  sessionIndex: string | null;
}

export function samlLogoutCallbackUrl(ctx: AppContext, org: Organization): string {
  return `${ctx.config.baseUrl}/saml/logout?org_slug=${encodeURIComponent(org.slug)}`;
}

/** Keeps what a LogoutRequest names: the assertion's NameID and SessionIndex. */
export function setSamlLogoutCookie(
  reply: FastifyReply,
  ctx: AppContext,
  org: Organization,
  profile: Profile,
): void {
  if (!profile.nameID) return;
  const data: LogoutData = {
    org: org.slug,
    nameID: profile.nameID,
    nameIDFormat: profile.nameIDFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
    sessionIndex: profile.sessionIndex ?? null,
  };
  reply.setCookie(COOKIE, encrypt(flowKey(ctx.keys.session), JSON.stringify(data)), {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.config.cookieSecure,
    maxAge: Math.max(ctx.config.sessionLifetimeSeconds, ctx.config.rememberLifetimeSeconds),
  });
}

export function clearSamlLogoutCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[COOKIE] !== undefined) reply.clearCookie(COOKIE, { path: COOKIE_PATH });
}

function readCookie(request: FastifyRequest, key: Buffer): LogoutData | null {
  const value = request.cookies[COOKIE];
  if (!value) return null;
  try {
    const data = JSON.parse(decrypt(key, value)) as Partial<LogoutData>;
    if (typeof data.org !== "string" || typeof data.nameID !== "string") return null;
    return {
      org: data.org,
      nameID: data.nameID,
      nameIDFormat: typeof data.nameIDFormat === "string" ? data.nameIDFormat : "",
      sessionIndex: typeof data.sessionIndex === "string" ? data.sessionIndex : null,
    };
  } catch {
    return null;
  }
}

function logoutSaml(
  ctx: AppContext,
  org: Organization,
  idp: IdentityProvider & { logoutUrl: string },
  issuer: string,
) {
  return new SAML({
    callbackUrl: samlLogoutCallbackUrl(ctx, org),
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.logoutUrl,
    logoutCallbackUrl: samlLogoutCallbackUrl(ctx, org),
    issuer,
    idpCert: idp.certificates,
    ...(idp.entityId ? { idpIssuer: idp.entityId } : {}),
    validateInResponseTo: ValidateInResponseTo.never,
    ...signingOptions(ctx.config.saml),
  });
}

async function logoutProvider(
  providers: IdentityProviders,
  org: Organization,
): Promise<(IdentityProvider & { logoutUrl: string }) | null> {
  if (orgSetting(org, "auth_saml_enabled") !== true) return null;
  const idp = await providers.forOrg(org);
  return idp.logoutUrl ? { ...idp, logoutUrl: idp.logoutUrl } : null;
}

/**
 * Called by /logout after the Sightline session ended: the identity provider's logout address
 * with a LogoutRequest, or null to go to the login page. Clears the cookie either way.
 */
export async function samlLogoutUrl(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  providers: IdentityProviders,
  spEntityId: (org: Organization) => string,
): Promise<string | null> {
  const data = readCookie(request, flowKey(ctx.keys.session));
  clearSamlLogoutCookie(request, reply);
  if (!data) return null;
  try {
    const org = await findOrgBySlug(ctx.database.db, data.org);
    const idp = org && (await logoutProvider(providers, org));
    if (!org || !idp) return null;
    const profile = {
      issuer: spEntityId(org),
      nameID: data.nameID,
      nameIDFormat: data.nameIDFormat,
      ...(data.sessionIndex ? { sessionIndex: data.sessionIndex } : {}),
    } as Profile;
    return await logoutSaml(ctx, org, idp, spEntityId(org)).getLogoutUrlAsync(profile, "", {});
  } catch (err) {
    request.log.warn(
      { method: "saml", err: err instanceof Error ? err.name : "error" },
      "the identity provider's logout address could not be used; signed out of Sightline only",
    );
    return null;
  }
}

const logoutDocs = {
  tags: ["session"],
  summary: "Where the SAML identity provider sends the browser after its logout (LogoutResponse)",
  querystring: S.object({ org_slug: { ...S.str, description: "The organisation's slug" } }),
  response: { 302: S.redirect("To the login page, always") },
};

/** GET /saml/logout: the provider's LogoutResponse, checked and logged; then the login page. */
export function samlLogoutRoute(
  app: FastifyInstance,
  ctx: AppContext,
  providers: IdentityProviders,
  spEntityId: (org: Organization) => string,
): void {
  app.get("/saml/logout", { schema: logoutDocs }, async (request, reply) => {
    // The Sightline session ended before the browser left; nothing here can sign anyone in.
    const q = request.query as Record<string, unknown>;
    const slug = typeof q.org_slug === "string" ? q.org_slug : "";
    const rawQuery = request.url.split("?")[1] ?? "";
    let outcome = "accepted";
    try {
      const org = slug ? await findOrgBySlug(ctx.database.db, slug) : null;
      const idp = org && (await logoutProvider(providers, org));
      if (!org || !idp) outcome = "SAML logout not configured";
      else if (typeof q.SAMLResponse !== "string") outcome = "no SAMLResponse";
      else if (typeof q.Signature !== "string" || typeof q.SigAlg !== "string") {
        outcome = "unsigned";
      } else {
        const container = {
          SAMLResponse: q.SAMLResponse,
          Signature: q.Signature,
          SigAlg: q.SigAlg,
          ...(typeof q.RelayState === "string" ? { RelayState: q.RelayState } : {}),
        };
        await logoutSaml(ctx, org, idp, spEntityId(org)).validateRedirectAsync(container, rawQuery);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : "";
      outcome = /signature/i.test(message)
        ? "bad signature"
        : /status/i.test(message)
          ? "not successful"
          : /issuer/i.test(message)
            ? "issuer"
            : "invalid";
    }
    if (outcome === "accepted") request.log.info({ method: "saml" }, "SAML logout finished");
    else request.log.warn({ method: "saml", check: outcome }, "SAML logout response refused");
    return reply.redirect("/login");
  });
}
