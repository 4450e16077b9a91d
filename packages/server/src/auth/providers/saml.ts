/**
 * SAML 2.0 sign-in on Redash's paths, with @node-saml/node-saml:
 * - GET /saml/login?next= sends the browser to the identity provider with an AuthnRequest
 *   (HTTP-Redirect); the request is stored (samlStore.ts) with where to go next, and its ID is the
 *   RelayState;
 * - POST /saml/callback?org_slug= is the assertion consumer service: the assertion must be signed
 *   by the provider's certificate, answer a request this installation sent and not used yet
 *   (InResponseTo, RelayState), be for our entity id (audience) and ACS URL (recipient,
 *   destination), within its time window (60 s of clock skew), and not accepted before (its ID,
 *   across servers). The identity then goes the one shared way to a user (justInTime.ts);
 * - GET /saml/metadata is the service provider's metadata for the provider's admin.
 * `?test=1` on the login path runs the whole flow for a signed-in admin and shows what came back,
 * signing nobody in. The provider is the organisation's settings (samlIdp.ts).
 * See docs/single-sign-on.md, "SAML 2.0".
 */
import crypto from "node:crypto";
import {
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
  type CacheProvider,
  type Profile,
} from "@node-saml/node-saml";
import { DOMParser } from "@xmldom/xmldom";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import { createOutboundClient } from "../../outbound/client";
import { orgSetting } from "../../services/orgSettings";
import { findOrgBySlug, type Organization } from "../../store/organizations";
import { escapeHtml } from "../pages";
import { safeEqual } from "../secretKey";
import { IdentityProviderError, IdentityProviders, type IdentityProvider } from "./samlIdp";
import { signingOptions } from "./samlConfig";
import { assertionFacts, identityFromProfile } from "./samlIdentity";
import {
  samlLogoutCallbackUrl,
  samlLogoutRoute,
  samlLogoutUrl,
  setSamlLogoutCookie,
} from "./samlLogout";
import {
  REQUEST_LIFETIME_MS,
  claimAssertion,
  findRequest,
  saveRequest,
  takeRequest,
  type SamlRequest,
} from "./samlStore";
import { completeSignIn, refuseSignIn, safeNextPath, userForSignIn } from "./signIn";
import type { SignInError } from "./signInErrors";
import {
  LOGIN_QUERY,
  TEST_FORBIDDEN,
  TEST_RESULT_RESPONSE,
  sendTestSignInResult,
  testerOf,
} from "./testSignIn";

const CLOCK_SKEW_MS = 60_000;
/** How long an accepted assertion's ID is kept when it names no end of its validity. */
const DEFAULT_ASSERTION_KEEP_MS = 60 * 60 * 1000;

function samlEnabled(org: Organization | null): org is Organization {
  return org !== null && orgSetting(org, "auth_saml_enabled") === true;
}

/**
 * The login page's "SAML Login" button (Redash's words) while SAML is on, keeping `next`. A link,
 * not a form: the page's Content-Security-Policy (form-action 'self') stops a form whose answer
 * redirects to the identity provider.
 */
export function samlButton(_ctx: AppContext, org: Organization | null, next: string): string {
  if (!samlEnabled(org)) return "";
  const safe = safeNextPath(next);
  const href = `/saml/login${safe ? `?${new URLSearchParams({ next: safe }).toString()}` : ""}`;
  return `<div class="sso-buttons" style="margin-top:8px"><a class="sso-button" href="${escapeHtml(href)}">SAML Login</a></div>`;
}

/** Our entity id: the settings' auth_saml_entity_id, else the metadata's address. */
export function spEntityId(ctx: AppContext, org: Organization): string {
  return orgSetting(org, "auth_saml_entity_id").trim() || `${ctx.config.baseUrl}/saml/metadata`;
}

/** The assertion consumer service's address, as Redash has it. */
export function acsUrl(ctx: AppContext, org: Organization): string {
  return `${ctx.config.baseUrl}/saml/callback?org_slug=${encodeURIComponent(org.slug)}`;
}

function nameIdFormat(org: Organization): string | null {
  return orgSetting(org, "auth_saml_nameid_format").trim() || null;
}

/**
 * The response's InResponseTo and Destination, read before verifying it: only to find our own
 * record of the request and to compare with our address, never believed otherwise.
 */
function envelope(samlResponse: string): {
  inResponseTo: string | null;
  destination: string | null;
} {
  const none = { inResponseTo: null, destination: null };
  try {
    const xml = Buffer.from(samlResponse, "base64").toString("utf8");
    const doc = new DOMParser({ errorHandler: { error: () => {}, fatalError: () => {} } });
    const root = doc.parseFromString(xml, "text/xml")?.documentElement;
    if (!root || root.localName !== "Response") return none;
    return {
      inResponseTo: root.getAttribute("InResponseTo") || null,
      destination: root.hasAttribute("Destination") ? root.getAttribute("Destination") : null,
    };
  } catch {
    return none;
  }
}

/** Why node-saml refused a response, in fixed words: its messages may quote the assertion. */
function classify(err: unknown): { error: SignInError; check: string } {
  if (err instanceof SamlStatusError) return { error: "saml_denied", check: "status" };
  const message = err instanceof Error ? err.message : "";
  const checks: [RegExp, string, SignInError][] = [
    [/InResponseTo/i, "in_response_to", "saml_request"],
    [/signature/i, "signature", "saml_invalid"],
    [/audience|AudienceRestriction/i, "audience", "saml_invalid"],
    [/expired|not yet valid|subject confirmation/i, "time", "saml_invalid"],
    [/issuer/i, "issuer", "saml_invalid"],
  ];
  for (const [pattern, check, error] of checks) {
    if (pattern.test(message)) return { error, check };
  }
  return { error: "saml_invalid", check: "other" };
}

/**
 * node-saml's request store over saml_requests: it saves the request it generates with this
 * sign-in's details, finds it again for InResponseTo and uses it up (once, across servers).
 */
class RequestStore implements CacheProvider {
  /** Whether this instance used a request up, by ID. */
  readonly taken = new Map<string, boolean>();

  constructor(
    private readonly ctx: AppContext,
    private readonly details: Omit<SamlRequest, "id"> | null,
  ) {}

  async saveAsync(key: string, value: string) {
    if (!this.details) throw new Error("no sign-in to save a request for");
    await saveRequest(this.ctx.database.db, { id: key, ...this.details });
    return { value, createdAt: Date.now() };
  }

  /** node-saml wants the request's time and checks its age; findRequest has done so already. */
  async getAsync(key: string) {
    return (await findRequest(this.ctx.database.db, key)) ? new Date().toISOString() : null;
  }

  async removeAsync(key: string | null) {
    if (!key) return null;
    if (!this.taken.has(key)) this.taken.set(key, await takeRequest(this.ctx.database.db, key));
    return key;
  }
}

function samlFor(
  ctx: AppContext,
  org: Organization,
  idp: IdentityProvider,
  store: RequestStore,
  id?: string,
): SAML {
  const entityId = spEntityId(ctx, org);
  return new SAML({
    callbackUrl: acsUrl(ctx, org),
    entryPoint: idp.ssoUrl,
    issuer: entityId,
    audience: entityId,
    idpCert: idp.certificates,
    identifierFormat: nameIdFormat(org),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    cacheProvider: store,
    disableRequestedAuthnContext: true,
    ...signingOptions(ctx.config.saml),
    ...(id ? { generateUniqueId: () => id } : {}),
  });
}

const tags = ["session"];
const docs = {
  login: {
    tags,
    summary: "Sign in with SAML: redirects to the identity provider with an AuthnRequest",
    querystring: LOGIN_QUERY,
    response: {
      302: S.redirect("To the identity provider; or to the login page with the reason"),
      ...S.errors(403, 404),
    },
  },
  callback: {
    tags,
    summary: "The assertion consumer service: the identity provider posts its SAML response here",
    consumes: ["application/x-www-form-urlencoded"],
    querystring: S.object({ org_slug: { ...S.str, description: "The organisation's slug" } }),
    response: {
      200: TEST_RESULT_RESPONSE,
      302: S.redirect("To `next`, signed in; or to the login page with the reason"),
      ...S.errors(400, 404),
    },
  },
  metadata: {
    tags,
    summary: "The service provider's SAML metadata (entity id, assertion consumer service)",
    querystring: S.object({ org_slug: { ...S.str, description: "The organisation's slug" } }),
    response: {
      200: {
        description: "SAML metadata",
        content: { "application/samlmetadata+xml": { schema: S.str } },
      },
      ...S.errors(404),
    },
  },
};

/** One set of identity providers (and their metadata cache) per running server. */
const providersOf = new WeakMap<AppContext, IdentityProviders>();
function identityProviders(ctx: AppContext): IdentityProviders {
  let providers = providersOf.get(ctx);
  if (!providers) {
    const outbound = createOutboundClient({ allowedRanges: ctx.config.outboundAllowedRanges });
    providers = new IdentityProviders(outbound);
    providersOf.set(ctx, providers);
  }
  return providers;
}

/** For /logout: the SAML identity provider's logout with a LogoutRequest, or null. */
export function samlProviderLogoutUrl(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
): Promise<string | null> {
  return samlLogoutUrl(request, reply, ctx, identityProviders(ctx), (org) => spEntityId(ctx, org));
}

export function samlRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const db = ctx.database.db;
  const providers = identityProviders(ctx);
  samlLogoutRoute(app, ctx, providers, (org) => spEntityId(ctx, org));
  const notEnabled = (reply: FastifyReply) =>
    reply.code(404).send({ message: "SAML login is not enabled." });

  async function orgOf(request: FastifyRequest): Promise<Organization | null> {
    const slug = (request.query as Record<string, unknown>).org_slug;
    if (typeof slug === "string" && slug !== "") return findOrgBySlug(db, slug);
    return request.auth.org;
  }

  /** The sign-in ends without a user: the login page with the reason, or the test's result. */
  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    saved: SamlRequest | null,
    error: SignInError,
    log: Record<string, unknown> = {},
  ) {
    return refuseSignIn(request, reply, {
      error,
      next: saved?.next ?? "",
      logMessage: "SAML login refused",
      log: { method: "saml", ...log },
      test: saved?.testedBy != null ? "saml" : null,
    });
  }

  app.get("/saml/login", { schema: docs.login }, async (request, reply) => {
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");
    if (!samlEnabled(org)) return notEnabled(reply);
    const q = request.query as Record<string, unknown>;
    const testedBy = testerOf(request);
    if (testedBy === "forbidden") return reply.code(403).send(TEST_FORBIDDEN);
    const details = { orgId: org.id, next: safeNextPath(q.next), testedBy };
    let idp: IdentityProvider;
    try {
      idp = await providers.forOrg(org);
    } catch (err) {
      const cause = err instanceof IdentityProviderError ? err.message : "unexpected error";
      return refuse(request, reply, { id: "", ...details }, "saml_unavailable", { cause });
    }
    const id = `_${crypto.randomBytes(20).toString("hex")}`;
    const saml = samlFor(ctx, org, idp, new RequestStore(ctx, details), id);
    // The RelayState is the request's ID: the answer must come back with both.
    const url = await saml.getAuthorizeUrlAsync(id, undefined, {});
    return reply.redirect(url);
  });

  app.post(
    "/saml/callback",
    { schema: docs.callback, config: { csrfExempt: true } },
    async (request, reply) => {
      const org = await orgOf(request);
      if (!samlEnabled(org)) return notEnabled(reply);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const samlResponse = typeof body.SAMLResponse === "string" ? body.SAMLResponse : "";
      const relayState = typeof body.RelayState === "string" ? body.RelayState : "";
      if (!samlResponse) {
        return reply.code(400).send({ message: "The SAMLResponse form field is missing." });
      }

      const { inResponseTo: requestId, destination } = envelope(samlResponse);
      const saved = requestId ? await findRequest(db, requestId) : null;
      if (!saved || saved.orgId !== org.id) {
        return refuse(request, reply, null, "saml_request", {
          cause: requestId ? "InResponseTo names no open request" : "no InResponseTo",
        });
      }
      if (!relayState || !safeEqual(relayState, saved.id)) {
        await takeRequest(db, saved.id);
        return refuse(request, reply, { ...saved, testedBy: null }, "saml_request", {
          cause: "RelayState does not match the request",
        });
      }

      let idp: IdentityProvider;
      try {
        idp = await providers.forOrg(org);
      } catch (err) {
        const cause = err instanceof IdentityProviderError ? err.message : "unexpected error";
        return refuse(request, reply, saved, "saml_unavailable", { cause });
      }
      const store = new RequestStore(ctx, null);
      let profile: Profile | null;
      try {
        ({ profile } = await samlFor(ctx, org, idp, store).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        }));
        if (!profile) throw new Error("Missing SAML assertion");
      } catch (err) {
        await takeRequest(db, saved.id);
        const { error, check } = classify(err);
        return refuse(request, reply, saved, error, { check });
      }

      // Checks node-saml leaves to us; all of this comes from the signed assertion.
      const facts = assertionFacts(profile);
      const acs = acsUrl(ctx, org);
      const problem = !facts.id
        ? "assertion has no ID"
        : facts.recipients.length === 0 || facts.recipients.some((r) => r !== acs)
          ? "recipient"
          : idp.entityId && facts.issuer !== idp.entityId
            ? "issuer"
            : null;
      if (problem) {
        await takeRequest(db, saved.id);
        return refuse(request, reply, saved, "saml_invalid", { check: problem });
      }
      // The response's Destination, when given, must be us too.
      if (destination !== null && destination !== acs) {
        await takeRequest(db, saved.id);
        return refuse(request, reply, saved, "saml_invalid", { check: "destination" });
      }
      const taken = store.taken.get(saved.id) ?? (await takeRequest(db, saved.id));
      if (!taken) {
        return refuse(request, reply, saved, "saml_request", { cause: "request already answered" });
      }
      const keepUntil = new Date(
        Math.max(
          (facts.notOnOrAfter?.getTime() ?? Date.now() + DEFAULT_ASSERTION_KEEP_MS) + CLOCK_SKEW_MS,
          Date.now() + CLOCK_SKEW_MS,
        ),
      );
      if (!(await claimAssertion(db, `${org.id}:${facts.id}`, keepUntil))) {
        return refuse(request, reply, saved, "saml_request", { cause: "assertion replayed" });
      }

      const identity = identityFromProfile(profile, config.saml.groupsAttribute);
      if (saved.testedBy !== null) {
        request.log.info({ method: "saml" }, "SAML test sign-in finished");
        return sendTestSignInResult(reply, "saml", { identity });
      }
      const result = await userForSignIn(ctx, org, identity);
      if (!result.ok) return refuse(request, reply, saved, result.reason);
      return completeSignIn(request, reply, ctx, {
        user: result.user,
        created: result.created,
        remember: true,
        next: saved.next,
        logMessage: "signed in by SAML",
        log: { method: "saml" },
        providerLogout: (r) => setSamlLogoutCookie(r, ctx, org, profile),
      });
    },
  );

  app.get("/saml/metadata", { schema: docs.metadata }, async (request, reply) => {
    const org = await orgOf(request);
    if (!org) return reply.code(404).send({ message: "No such organization." });
    const signing = ctx.config.saml.signing;
    const xml = generateServiceProviderMetadata({
      issuer: spEntityId(ctx, org),
      callbackUrl: acsUrl(ctx, org),
      logoutCallbackUrl: samlLogoutCallbackUrl(ctx, org),
      identifierFormat: nameIdFormat(org),
      wantAssertionsSigned: true,
      // With a key of its own, the metadata says requests are signed and gives the certificate.
      ...(signing ? { ...signingOptions(ctx.config.saml), publicCerts: signing.certificate } : {}),
    });
    return reply.code(200).type("application/samlmetadata+xml").send(xml);
  });
}
