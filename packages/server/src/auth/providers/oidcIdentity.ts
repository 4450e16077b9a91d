/**
 * Who an OpenID provider says signed in, from the verified ID token's claims (and the userinfo
 * endpoint's, which fill in what the ID token leaves out), and the Google preset's domain rule.
 */
import type { Organization } from "../../store/organizations";
import { googleAppsDomains } from "../../services/orgSettings";
import type { OutsideIdentity } from "./justInTime";
import type { OidcMethod } from "./oidcClient";

export type Claims = Record<string, unknown>;

/** A claim by its name, or by a dotted path into nested claims ("realm_access.roles"). */
function claimAt(claims: Claims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

function groupsOf(value: unknown): string[] | undefined {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return undefined;
}

export function identityFromClaims(method: OidcMethod, claims: Claims): OutsideIdentity {
  const email = typeof claims.email === "string" ? claims.email.trim() : "";
  // Some providers send the flag as a string.
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const name = typeof claims.name === "string" ? claims.name.trim() : "";
  const identity: OutsideIdentity = { email, name, verifiedEmail: verified };
  if (method.groupsClaim) {
    const groups = groupsOf(claimAt(claims, method.groupsClaim));
    if (groups) identity.groups = groups;
  }
  return identity;
}

/**
 * The `hd` parameter to send Google while the organisation lists exactly one Apps domain: Google
 * then offers that domain's accounts only. A hint: the returned token is still checked by
 * allowedByDomains. Null for other providers and for none or several domains.
 */
export function googleDomainHint(method: OidcMethod, org: Organization): string | null {
  if (method.name !== "google") return null;
  const domains = [
    ...new Set(
      googleAppsDomains(org)
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  return domains.length === 1 ? domains[0]! : null;
}

/**
 * The Google preset's rule: while the organisation lists Google Apps domains, both the account's
 * hosted domain (`hd`, set only for Google Workspace accounts) and its e-mail's domain must be
 * among them. Other methods have no such rule.
 */
export function allowedByDomains(method: OidcMethod, org: Organization, claims: Claims): boolean {
  if (method.name !== "google") return true;
  const domains = googleAppsDomains(org).map((d) => d.trim().toLowerCase());
  if (domains.length === 0) return true;
  const hd = typeof claims.hd === "string" ? claims.hd.trim().toLowerCase() : "";
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const at = email.lastIndexOf("@");
  const emailDomain = at > 0 ? email.slice(at + 1) : "";
  return hd !== "" && domains.includes(hd) && domains.includes(emailDomain);
}
