/**
 * "Test sign-in" from the settings page: an admin runs a method's whole flow (its login path with
 * `?test=1`), and at the end sees who the provider said they are and what Sightline would do,
 * without a session being started or a user created or changed: everything here only reads.
 * See docs/single-sign-on.md, "Test sign-in".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import { isAdmin } from "../../policies";
import { defaultGroupId } from "../../services/organizationSetup";
import { normalizeEmail } from "../../services/users";
import type { Organization } from "../../store/organizations";
import { findUserByEmail, groupsByIds } from "../../store/users";
import { escapeHtml, page } from "../pages";
import { groupMappingFor } from "./groupMapping";
import type { OutsideIdentity } from "./justInTime";
import { signInErrorMessage } from "./signInErrors";

export type SignInMethod = "oidc" | "google" | "saml" | "ldap";

export const METHOD_NAMES: Record<SignInMethod, string> = {
  google: "Google",
  oidc: "OpenID Connect",
  saml: "SAML",
  ldap: "LDAP",
};

declare module "fastify" {
  interface FastifyInstance {
    testSignInContext: AppContext | null;
  }
}

/** Makes the app context reachable from a reply (the methods' routes call with the reply only). */
export function registerTestSignIn(app: FastifyInstance, ctx: AppContext): void {
  if (!app.hasDecorator("testSignInContext")) app.decorate("testSignInContext", ctx);
}

/** Whether the caller may run a test sign-in: a signed-in admin (not by API key). */
export function requireAdminForTest(request: FastifyRequest): boolean {
  const identity = request.auth.identity;
  return identity.kind === "user" && !identity.viaApiKey && isAdmin(identity);
}

/**
 * The admin running a test sign-in (the login path's `?test=1`): their user id; null when the
 * request is no test; "forbidden" when the caller may not test (answer 403).
 */
export function testerOf(request: FastifyRequest): number | null | "forbidden" {
  if ((request.query as Record<string, unknown>).test !== "1") return null;
  const identity = request.auth.identity;
  if (!requireAdminForTest(request) || identity.kind !== "user") return "forbidden";
  return identity.user.id;
}

/** The 403 answer to a test sign-in by someone who may not run one. */
export const TEST_FORBIDDEN = { message: "Only an admin can test a sign-in method." };

/** API docs: the redirecting methods' login query and their callbacks' test-result answer. */
export const LOGIN_QUERY = S.object({
  next: { ...S.str, description: "Where to go after login" },
  test: { ...S.str, description: '"1": an admin\'s test sign-in (signs nobody in)' },
});
export const TEST_RESULT_RESPONSE = {
  description: "A test sign-in's result",
  content: {
    "text/html": { schema: S.str },
    "application/json": { schema: S.anyObject },
  },
};

/** What Sightline would do with the identity, as userForIdentity decides, read only. */
export interface WouldDo {
  action: "create" | "sign_in" | "refuse";
  userId?: number;
  userName?: string;
  refusal?: string;
  /** Group names the user would have afterwards, or null when their groups are left alone. */
  groups: string[] | null;
  groupsNote: string;
}

export async function wouldDo(
  ctx: AppContext,
  org: Organization,
  identity: OutsideIdentity,
): Promise<WouldDo> {
  const db = ctx.database.db;
  const existing = await findUserByEmail(db, org.id, identity.email);
  const email = normalizeEmail(identity.email, ctx.config.blockedEmailDomains);
  const refuse = (reason: "invalid_email" | "unverified_email" | "disabled"): WouldDo => ({
    action: "refuse",
    refusal: signInErrorMessage(reason)!,
    groups: null,
    groupsNote: "Nobody would be signed in.",
  });
  if (!existing && !email) return refuse("invalid_email");
  if (!identity.verifiedEmail) return refuse("unverified_email");
  if (existing && existing.disabled_at !== null) return refuse("disabled");
  const base: Pick<WouldDo, "action" | "userId" | "userName"> = existing
    ? { action: "sign_in", userId: existing.id, userName: existing.name }
    : { action: "create" };

  // Through groupMappingFor, the very function a real sign-in uses.
  const mapGroups = groupMappingFor(ctx, org);
  const defaultId = await defaultGroupId(db, org.id);
  const unchanged = async (groupsNote: string): Promise<WouldDo> => {
    if (existing) return { ...base, groups: null, groupsNote };
    const [group] = await groupsByIds(db, org.id, [defaultId]);
    return {
      ...base,
      groups: [group?.name ?? "default"],
      groupsNote: "New users join the default group.",
    };
  };
  if (!mapGroups) {
    return unchanged("Group mapping is off: the user's groups stay as they are.");
  }
  if (!identity.groups) {
    return unchanged("The provider sent no groups: the user's groups stay as they are.");
  }
  const mapped = await mapGroups(identity.groups);
  if (mapped === null) return unchanged("The user's groups stay as they are.");
  const groups = await groupsByIds(db, org.id, [...new Set([defaultId, ...mapped])]);
  return {
    ...base,
    groups: groups.map((g) => g.name),
    groupsNote: "Group mapping is on: the default group plus the mapped groups, at every sign-in.",
  };
}

const TEST_STYLE = `<style>
.card{max-width:520px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0 0 16px;font-size:14px}
dt{color:rgba(0,0,0,.55)}dd{margin:0;word-break:break-word}
h2{font-size:15px;margin:20px 0 8px;font-weight:600}
ul.groups{margin:0 0 8px;padding-left:20px;font-size:14px}
.note{font-size:13px;color:rgba(0,0,0,.55)}
</style>`;

const list = (items: string[]) =>
  items.length === 0
    ? "<em>none</em>"
    : `<ul class="groups">${items.map((g) => `<li>${escapeHtml(g)}</li>`).join("")}</ul>`;

export function renderTestResult(
  method: SignInMethod,
  outcome: { identity: OutsideIdentity } | { error: string },
  decision: WouldDo | null,
): string {
  const name = METHOD_NAMES[method];
  const rows: [string, string][] = [["Method", escapeHtml(name)]];
  let body = "";
  if ("error" in outcome) {
    rows.push(["Result", "Failed"]);
  } else {
    const { identity } = outcome;
    rows.push(
      ["Result", "Worked"],
      ["E-mail", escapeHtml(identity.email) || "<em>none</em>"],
      ["Name", escapeHtml(identity.name) || "<em>none</em>"],
      ["E-mail verified", identity.verifiedEmail ? "Yes" : "No"],
      ["Groups", identity.groups === undefined ? "<em>not sent</em>" : list(identity.groups)],
    );
    if (decision) {
      let action: string;
      if (decision.action === "create") action = "Create a new user and sign them in.";
      else if (decision.action === "sign_in") {
        action = `Sign in the existing user #${decision.userId} (${escapeHtml(decision.userName ?? "")}).`;
      } else action = `Refuse the sign-in: ${escapeHtml(decision.refusal ?? "")}`;
      body += `<h2>What Sightline would do</h2><p data-testid="would-do">${action}</p>`;
      body += `<h2>Groups after sign-in</h2>${decision.groups ? list(decision.groups) : ""}<p class="note">${escapeHtml(decision.groupsNote)}</p>`;
    }
  }
  const dl = `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
  const message =
    "error" in outcome
      ? { kind: "error" as const, text: `${name} sign-in failed: ${outcome.error}` }
      : { kind: "info" as const, text: `${name} sign-in worked.` };
  return page(
    `Test ${name} sign-in`,
    `${TEST_STYLE}<h1>Test ${escapeHtml(name)} sign-in</h1>${dl}${body}
<p class="note">This was a test: nobody was signed in and nothing was changed.</p>
<div class="links"><a href="/settings/general">Back to settings</a></div>`,
    [message],
  );
}

/** The page at the end of a test sign-in: the identity the method gave, or why it failed. */
export async function sendTestSignInResult(
  reply: FastifyReply,
  method: SignInMethod,
  outcome: { identity: OutsideIdentity } | { error: string },
): Promise<FastifyReply> {
  const ctx = reply.server.testSignInContext ?? null;
  const org = reply.request.auth?.org ?? null;
  let decision: WouldDo | null = null;
  if ("identity" in outcome && ctx && org) {
    decision = await wouldDo(ctx, org, outcome.identity);
  } else if (!ctx) {
    reply.request.log.error("test sign-in: registerTestSignIn was not called for these routes");
  }
  return reply
    .code(200)
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(renderTestResult(method, outcome, decision));
}
