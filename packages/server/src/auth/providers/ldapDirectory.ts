/**
 * The conversation with the directory for one LDAP sign-in, as Redash's: bind as the service
 * account, find the person's entry with the search template (the user name escaped per RFC 4515,
 * so it can only ever be a value), require exactly one entry, bind as that entry with the
 * password, and read the e-mail, name and groups from the entry. Nothing here touches Sightline's
 * users; ldap.ts hands the identity to the just-in-time path.
 */
import {
  BusyError,
  Client,
  InvalidCredentialsError,
  SizeLimitExceededError,
  UnavailableError,
  type Entry,
} from "ldapts";
import type { ConnectionOptions } from "node:tls";
import type { OutsideIdentity } from "./justInTime";
import type { LdapConfig } from "./ldapConfig";

/**
 * Why no identity came back. `bad_credentials` covers an unknown user, a wrong password and an
 * ambiguous name alike, so the form does not tell which user names exist.
 */
export type LdapFailure =
  "bad_credentials" | "unreachable" | "untrusted_certificate" | "misconfigured" | "no_email";

export type LdapOutcome =
  | { ok: true; dn: string; identity: OutsideIdentity }
  /** `detail` is for the log: never holds the password. */
  | { ok: false; failure: LdapFailure; detail: string };

/** A user name longer than this is refused before the directory is asked. */
const MAX_USERNAME = 256;

/** RFC 4515: a value in a filter with `*`, `(`, `)`, `\` and NUL written as `\hh`. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The search template with every %(username)s replaced by the escaped user name. */
export function searchFilter(template: string, username: string): string {
  const value = escapeFilterValue(username);
  return template.split("%(username)s").join(value);
}

function values(entry: Entry, key: string): string[] {
  // Attribute names are case-insensitive; the server answers in its own spelling.
  const name = Object.keys(entry).find((k) => k.toLowerCase() === key.toLowerCase());
  const raw = name === undefined ? undefined : entry[name];
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString("utf8") : v)).filter((v) => v !== "");
}

/**
 * The group names an entry gives for mapping: each value as it is, and for a DN value
 * (memberOf's `cn=analysts,ou=groups,dc=example,dc=org`) also its first RDN's value (`analysts`),
 * so a mapping may name either.
 */
export function groupNames(raw: string[]): string[] {
  const names: string[] = [];
  for (const value of raw) {
    names.push(value);
    const rdn = /^\s*[A-Za-z][\w-]*\s*=\s*((?:\\.|[^,+\\])+)\s*(?:[,+]|$)/.exec(value);
    if (rdn && value.includes(",")) names.push(rdn[1]!.replace(/\\(.)/g, "$1").trim());
  }
  return [...new Set(names)];
}

function tlsOptions(config: LdapConfig): ConnectionOptions {
  return { minVersion: "TLSv1.2", ...(config.caCert ? { ca: [config.caCert] } : {}) };
}

/** A connection failure's words for the log (refused, timed out, certificate not trusted…). */
function connectionProblem(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? `${e.code}: ` : "";
  return `${code}${typeof e.message === "string" ? e.message : String(err)}`;
}

function isCertificateError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    typeof code === "string" &&
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME|HOSTNAME_MISMATCH/.test(code)
  );
}

function isTransportError(err: unknown): boolean {
  if (err instanceof BusyError || err instanceof UnavailableError) return true;
  if (err instanceof InvalidCredentialsError) return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === "string") return true; // ECONNREFUSED, ETIMEDOUT, a TLS code…
  return typeof e.message === "string" && /timeout|timed out|connection|socket/i.test(e.message);
}

/** Checks a user name and password against the directory; resolves, never throws. */
export async function ldapAuthenticate(
  config: LdapConfig,
  username: string,
  password: string,
): Promise<LdapOutcome> {
  const name = username.trim();
  // An empty password would be an anonymous (unauthenticated) bind, which succeeds.
  if (name === "" || password === "") {
    return { ok: false, failure: "bad_credentials", detail: "empty user name or password" };
  }
  if (name.length > MAX_USERNAME) {
    return { ok: false, failure: "bad_credentials", detail: "user name too long" };
  }
  if (!config.url || !config.searchDn) {
    return { ok: false, failure: "misconfigured", detail: "no LDAP URL or search DN" };
  }
  const client = new Client({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    // ldapts speaks TLS from the start whenever tlsOptions are given: only for ldaps://.
    ...(/^ldaps:/i.test(config.url) ? { tlsOptions: tlsOptions(config) } : {}),
  });
  let stage = "connect";
  try {
    if (config.startTls) {
      stage = "StartTLS";
      await client.startTLS(tlsOptions(config));
    }
    if (config.bindDn) {
      stage = "service bind";
      await client.bind(config.bindDn, config.bindPassword ?? "");
    }
    stage = "search";
    const attributes = [config.emailKey, config.displayNameKey, config.groupsKey, "dn"].filter(
      (a): a is string => a !== null,
    );
    const { searchEntries } = await client.search(config.searchDn, {
      scope: "sub",
      filter: searchFilter(config.searchTemplate, name),
      attributes,
      sizeLimit: 2,
      timeLimit: Math.ceil(config.timeoutMs / 1000),
    });
    if (searchEntries.length !== 1) {
      return {
        ok: false,
        failure: "bad_credentials",
        detail: searchEntries.length === 0 ? "no entry matches" : "several entries match",
      };
    }
    const entry = searchEntries[0]!;
    stage = "user bind";
    await client.bind(entry.dn, password);
    const email = values(entry, config.emailKey)[0];
    if (!email) {
      return {
        ok: false,
        failure: "no_email",
        detail: `the entry has no ${config.emailKey} attribute`,
      };
    }
    return {
      ok: true,
      dn: entry.dn,
      identity: {
        email,
        name: values(entry, config.displayNameKey)[0] ?? "",
        // The directory holds the address for this account: it vouches for it.
        verifiedEmail: true,
        ...(config.groupsKey ? { groups: groupNames(values(entry, config.groupsKey)) } : {}),
      },
    };
  } catch (err) {
    if (err instanceof InvalidCredentialsError) {
      return stage === "user bind"
        ? { ok: false, failure: "bad_credentials", detail: "wrong password" }
        : { ok: false, failure: "misconfigured", detail: `${stage}: the service bind was refused` };
    }
    if (err instanceof SizeLimitExceededError) {
      return { ok: false, failure: "bad_credentials", detail: "several entries match" };
    }
    if (isCertificateError(err)) {
      return {
        ok: false,
        failure: "untrusted_certificate",
        detail: `${stage}: ${connectionProblem(err)}`,
      };
    }
    if (isTransportError(err)) {
      return { ok: false, failure: "unreachable", detail: `${stage}: ${connectionProblem(err)}` };
    }
    if (stage === "user bind") {
      // The directory refused this account's bind for its own reasons (locked, expired…).
      return {
        ok: false,
        failure: "bad_credentials",
        detail: `${stage}: ${connectionProblem(err)}`,
      };
    }
    return { ok: false, failure: "misconfigured", detail: `${stage}: ${connectionProblem(err)}` };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
