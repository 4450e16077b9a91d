/**
 * SAML single logout (HTTP-Redirect), both ways. A SAML sign-in leaves a cookie (encrypted, sent
 * only to /logout and /saml/logout) with the NameID and SessionIndex the assertion gave.
 * - Sightline's /logout ends its own session first and then, when the identity provider's
 *   metadata names a SingleLogoutService (HTTP-Redirect), sends the browser there with a
 *   LogoutRequest (node-saml's getLogoutUrlAsync). The provider comes back to GET /saml/logout
 *   with its LogoutResponse: it must carry the provider's redirect signature, and whatever it says
 *   the browser goes to the login page (never to a RelayState or other address).
 * - A logout the provider starts (another application's logout, front-channel) comes to GET
 *   /saml/logout with the provider's signed LogoutRequest: it ends this browser's session when
 *   that session came from a SAML sign-in of the same NameID (and SessionIndex, when the request
 *   names one), and the browser goes back to the provider with a LogoutResponse.
 * Without the cookie, or for a static provider (no logout address in the settings), logout is
 * Sightline's alone. See docs/single-sign-on.md, "SAML 2.0", Logout.
 */
import { SAML, ValidateInResponseTo, type Profile } from "@node-saml/node-saml";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import { orgSetting } from "../../services/orgSettings";
import { findOrgBySlug, type Organization } from "../../store/organizations";
import { decrypt, encrypt } from "../encryption";
import { endSession } from "../requestAuth";
import { flowKey } from "./oidcFlow";
import { signingOptions } from "./samlConfig";
import type { IdentityProvider, IdentityProviders } from "./samlIdp";

const COOKIE = "saml_logout";
/** Sightline's logout, and the address where the provider's logout messages come. */
const COOKIE_PATHS = ["/logout", "/saml/logout"];

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
  const value = encrypt(flowKey(ctx.keys.session), JSON.stringify(data));
  for (const path of COOKIE_PATHS) {
    reply.setCookie(COOKIE, value, {
      path,
      httpOnly: true,
      sameSite: "lax",
      secure: ctx.config.cookieSecure,
      maxAge: Math.max(ctx.config.sessionLifetimeSeconds, ctx.config.rememberLifetimeSeconds),
    });
  }
}

export function clearSamlLogoutCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[COOKIE] === undefined) return;
  for (const path of COOKIE_PATHS) reply.clearCookie(COOKIE, { path });
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
  summary:
    "The SAML identity provider's logout messages: its LogoutResponse after Sightline's logout, " +
    "or its LogoutRequest when it starts a logout",
  querystring: S.object({ org_slug: { ...S.str, description: "The organisation's slug" } }),
  response: {
    302: S.redirect(
      "To the login page; after a provider's LogoutRequest, back to the provider with a LogoutResponse",
    ),
  },
};

/** Which check a refused logout message failed, from node-saml's error. */
function failedCheck(err: unknown): string {
  const message = err instanceof Error ? err.message : "";
  return /signature/i.test(message)
    ? "bad signature"
    : /status/i.test(message)
      ? "not successful"
      : /issuer/i.test(message)
        ? "issuer"
        : "invalid";
}

/** GET /saml/logout: the provider's LogoutResponse or LogoutRequest, checked and logged. */
export function samlLogoutRoute(
  app: FastifyInstance,
  ctx: AppContext,
  providers: IdentityProviders,
  spEntityId: (org: Organization) => string,
): void {
  app.get("/saml/logout", { schema: logoutDocs }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const slug = typeof q.org_slug === "string" ? q.org_slug : "";
    const rawQuery = request.url.split("?")[1] ?? "";
    const kind = typeof q.SAMLRequest === "string" ? "SAMLRequest" : "SAMLResponse";
    let outcome = "accepted";
    try {
      const org = slug ? await findOrgBySlug(ctx.database.db, slug) : null;
      const idp = org && (await logoutProvider(providers, org));
      if (!org || !idp) outcome = "SAML logout not configured";
      else if (typeof q[kind] !== "string") outcome = "no SAMLResponse";
      else if (typeof q.Signature !== "string" || typeof q.SigAlg !== "string") {
        // node-saml takes a message without a signature as valid: the binding requires one.
        outcome = "unsigned";
      } else {
        const relayState = typeof q.RelayState === "string" ? q.RelayState : null;
        const container = {
          [kind]: q[kind] as string,
          Signature: q.Signature,
          SigAlg: q.SigAlg,
          ...(relayState !== null ? { RelayState: relayState } : {}),
        };
        const saml = logoutSaml(ctx, org, idp, spEntityId(org));
        const { profile } = await saml.validateRedirectAsync(container, rawQuery);
        if (kind === "SAMLRequest") {
          if (!profile) throw new Error("no LogoutRequest");
          const ended = await endSamlSession(request, reply, ctx, org, profile);
          request.log.info(
            { method: "saml", ended },
            ended
              ? "SAML logout started by the identity provider: session ended"
              : "SAML logout started by the identity provider: no session of its sign-in here",
          );
          // The provider goes on with its logout: it learns this one is done.
          return reply.redirect(
            await saml.getLogoutResponseUrlAsync(profile, relayState ?? "", {}, true),
          );
        }
      }
    } catch (err) {
      outcome = failedCheck(err);
    }
    // The Sightline session ended before the browser left (its own /logout), or it is kept (a
    // refused LogoutRequest ends nothing); nothing here can sign anyone in.
    if (outcome === "accepted") request.log.info({ method: "saml" }, "SAML logout finished");
    else if (kind === "SAMLRequest") {
      request.log.warn({ method: "saml", check: outcome }, "SAML logout request refused");
    } else request.log.warn({ method: "saml", check: outcome }, "SAML logout response refused");
    return reply.redirect("/login");
  });
}

/**
 * Ends this browser's Sightline session when it came from a SAML sign-in of the organisation with
 * the request's NameID (and its SessionIndex, when it names one); true if it did.
 */
async function endSamlSession(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  org: Organization,
  profile: Profile,
): Promise<boolean> {
  const data = readCookie(request, flowKey(ctx.keys.session));
  const indexes = ([] as unknown[]).concat(profile.sessionIndex ?? []);
  const same =
    data !== null &&
    data.org === org.slug &&
    data.nameID === profile.nameID &&
    (indexes.length === 0 || indexes.includes(data.sessionIndex));
  if (!same) return false;
  await endSession(request, ctx);
  clearSamlLogoutCookie(request, reply);
  return true;
}
