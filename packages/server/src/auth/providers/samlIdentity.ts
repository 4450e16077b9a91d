/**
 * What a verified SAML assertion says: who signed in (OutsideIdentity) and the facts the sign-in
 * checks beyond node-saml's own (the assertion's ID for replays, its recipients and issuer).
 * Only called with the assertion node-saml verified the signature of.
 */
import type { Profile } from "@node-saml/node-saml";
import type { OutsideIdentity } from "./justInTime";

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const UNSPECIFIED_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";
const CLAIMS = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Attribute names that hold the e-mail, first match wins (Keycloak, Azure AD, LDAP-style). */
const EMAIL_ATTRIBUTES = ["email", "mail", "Email", "emailAddress", `${CLAIMS}emailaddress`];
const FIRST_NAME = ["FirstName", "firstName", "givenName", `${CLAIMS}givenname`];
const LAST_NAME = ["LastName", "lastName", "surname", "sn", `${CLAIMS}surname`];
const DISPLAY_NAME = [
  "displayName",
  "http://schemas.microsoft.com/identity/claims/displayname",
  "name",
  `${CLAIMS}name`,
];

type Attributes = Record<string, unknown>;

function attributesOf(profile: Profile): Attributes {
  const attributes = profile.attributes;
  return attributes && typeof attributes === "object" ? (attributes as Attributes) : {};
}

/** An attribute's values as strings (one value, several, or none). */
export function values(attributes: Attributes, name: string): string[] {
  const raw = attributes[name];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.filter((v): v is string => typeof v === "string").map((v) => v.trim());
}

function first(attributes: Attributes, names: readonly string[]): string {
  for (const name of names) {
    const value = values(attributes, name).find((v) => v !== "");
    if (value) return value;
  }
  return "";
}

function emailOf(profile: Profile, attributes: Attributes): string {
  const nameId = (profile.nameID ?? "").trim();
  if (profile.nameIDFormat === EMAIL_FORMAT && nameId) return nameId;
  const attribute = first(attributes, EMAIL_ATTRIBUTES);
  if (attribute) return attribute;
  // Some providers send the address as an unspecified NameID.
  const unspecified = !profile.nameIDFormat || profile.nameIDFormat === UNSPECIFIED_FORMAT;
  return unspecified && EMAIL_PATTERN.test(nameId) ? nameId : "";
}

/**
 * The person the assertion names: e-mail from an emailAddress NameID or an e-mail attribute;
 * name from FirstName/LastName (as Redash reads them) or a display name; groups from the
 * configured attribute. The identity provider vouches for the address.
 */
export function identityFromProfile(
  profile: Profile,
  groupsAttribute: string | null,
): OutsideIdentity {
  const attributes = attributesOf(profile);
  const given = [first(attributes, FIRST_NAME), first(attributes, LAST_NAME)]
    .filter(Boolean)
    .join(" ");
  const identity: OutsideIdentity = {
    email: emailOf(profile, attributes),
    name: given || first(attributes, DISPLAY_NAME),
    verifiedEmail: true,
  };
  if (groupsAttribute) {
    identity.groups = values(attributes, groupsAttribute).filter((g) => g !== "");
  }
  return identity;
}

/** The parts of the verified assertion (xml2js form) the sign-in checks itself. */
export interface AssertionFacts {
  id: string;
  issuer: string;
  /** Recipient of every bearer SubjectConfirmationData. */
  recipients: string[];
  /** The latest NotOnOrAfter given (conditions or subject), or null. */
  notOnOrAfter: Date | null;
}

type Node = { $?: Record<string, string>; _?: string; [child: string]: unknown };

function children(node: Node | undefined, name: string): Node[] {
  const list = node?.[name];
  return Array.isArray(list) ? (list as Node[]) : [];
}

export function assertionFacts(profile: Profile): AssertionFacts {
  const doc = (profile.getAssertion?.() ?? {}) as { Assertion?: Node };
  const assertion = doc.Assertion;
  const issuerNode = children(assertion, "Issuer")[0];
  const issuer = typeof issuerNode === "string" ? issuerNode : (issuerNode?._ ?? "");
  const confirmations = children(children(assertion, "Subject")[0], "SubjectConfirmation");
  const data = confirmations.flatMap((c) => children(c, "SubjectConfirmationData"));
  const times = [
    ...data.map((d) => d.$?.NotOnOrAfter),
    ...children(assertion, "Conditions").map((c) => c.$?.NotOnOrAfter),
  ]
    .filter((t): t is string => typeof t === "string")
    .map((t) => Date.parse(t))
    .filter((t) => !Number.isNaN(t));
  return {
    id: assertion?.$?.ID ?? "",
    issuer: issuer.trim(),
    recipients: data.map((d) => d.$?.Recipient ?? ""),
    notOnOrAfter: times.length > 0 ? new Date(Math.max(...times)) : null,
  };
}
