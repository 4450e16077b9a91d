import { X509Certificate } from "node:crypto";
import {
  createLocalJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type { OutboundClient } from "../outbound/client";
import type { Organization } from "../store/organizations";
import { orgSetting } from "../services/orgSettings";

/**
 * JWT login (api-platform.md §2.7): an identity-aware proxy (Cloudflare Access, Google IAP and
 * the like) signs in front of Sightline and passes a signed token in a cookie or header; its
 * `email` claim names the user. The token is checked against the issuer's public keys, read
 * from the configured address, and the organisation's issuer, audience and algorithms.
 */

export interface JwtSettings {
  issuer: string;
  audience: string;
  publicCertsUrl: string;
  algorithms: string[];
  cookieName: string;
  headerName: string;
}

/** The organisation's JWT settings, or null when JWT login is off. */
export function jwtSettings(org: Organization): JwtSettings | null {
  if (orgSetting(org, "auth_jwt_login_enabled") !== true) return null;
  return {
    issuer: orgSetting(org, "auth_jwt_auth_issuer"),
    audience: orgSetting(org, "auth_jwt_auth_audience"),
    publicCertsUrl: orgSetting(org, "auth_jwt_auth_public_certs_url"),
    algorithms: orgSetting(org, "auth_jwt_auth_algorithms"),
    cookieName: orgSetting(org, "auth_jwt_auth_cookie_name"),
    headerName: orgSetting(org, "auth_jwt_auth_header_name"),
  };
}

/** The token of a request: the named cookie first, then the named header. */
export function jwtOf(
  request: { cookies: Record<string, string | undefined>; headers: Record<string, unknown> },
  settings: JwtSettings,
): string | null {
  const cookie = settings.cookieName ? request.cookies[settings.cookieName] : undefined;
  if (cookie) return cookie;
  const header = settings.headerName ? request.headers[settings.headerName.toLowerCase()] : null;
  return typeof header === "string" && header ? header : null;
}

/**
 * An issuer's keys as a JWK set. The address may serve a JWK set (`{"keys": [...]}`) or, as
 * Google's and some proxies' do, an object of key id → PEM certificate.
 */
export function publicKeySet(document: unknown): JSONWebKeySet {
  if (document && typeof document === "object" && Array.isArray((document as JSONWebKeySet).keys)) {
    return document as JSONWebKeySet;
  }
  if (!document || typeof document !== "object") {
    throw new Error("The public keys document is neither a JWK set nor certificates by key id.");
  }
  const keys: JWK[] = [];
  for (const [kid, pem] of Object.entries(document)) {
    if (typeof pem !== "string") continue;
    const key = new X509Certificate(pem).publicKey.export({ format: "jwk" });
    keys.push({ ...(key as JWK), kid });
  }
  return { keys };
}

/** A new key set is read at most this often when a token names a key not in the cached one. */
const REFRESH_AFTER_MS = 60_000;
/** Keys are read again after this long in any case (issuers rotate them). */
const MAX_AGE_MS = 3_600_000;

interface CachedKeys {
  fetchedAt: number;
  resolve: JWTVerifyGetKey;
}

/** After a failed read of the keys, tokens are refused this long before the next try. */
const RETRY_AFTER_FAILURE_MS = 30_000;

/** Reads and caches issuers' public keys through the guarded outbound client. */
export class JwtKeyStore {
  private readonly cache = new Map<string, CachedKeys>();
  /** The last failure per address: while the issuer is down, requests do not each wait on it. */
  private readonly failures = new Map<string, { at: number; error: Error }>();

  constructor(
    private readonly outbound: OutboundClient,
    private readonly now: () => number = Date.now,
  ) {}

  async keys(url: string, options: { refresh?: boolean } = {}): Promise<CachedKeys> {
    const cached = this.cache.get(url);
    const age = cached ? this.now() - cached.fetchedAt : Infinity;
    if (cached && age < MAX_AGE_MS && !(options.refresh && age >= REFRESH_AFTER_MS)) {
      return cached;
    }
    const failed = this.failures.get(url);
    if (failed && this.now() - failed.at < RETRY_AFTER_FAILURE_MS) throw failed.error;
    try {
      const fresh = { fetchedAt: this.now(), resolve: await this.read(url) };
      this.cache.set(url, fresh);
      this.failures.delete(url);
      return fresh;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.failures.set(url, { at: this.now(), error: failure });
      throw failure;
    }
  }

  private async read(url: string): Promise<JWTVerifyGetKey> {
    const response = await this.outbound.request(url, {
      timeoutMs: 10_000,
      maxResponseBytes: 1024 * 1024,
    });
    if (response.status !== 200) {
      throw new Error(`The public keys address answered ${response.status}.`);
    }
    return createLocalJWKSet(publicKeySet(response.json()));
  }
}

export type JwtCheck = { valid: true; email: string } | { valid: false; reason: string };

function errorCode(error: unknown): string | undefined {
  return error && typeof error === "object" && "code" in error ? String(error.code) : undefined;
}

/**
 * Verifies a token with a key set. A set with several keys that fit the token (no key id) is
 * tried key by key, as Redash tries every key.
 */
async function verifyWith(
  token: string,
  resolve: JWTVerifyGetKey,
  settings: JwtSettings,
): Promise<JWTPayload> {
  const options = {
    issuer: settings.issuer,
    audience: settings.audience,
    algorithms: settings.algorithms,
    // A token without an expiry would sign its holder in for good.
    requiredClaims: ["exp"],
  };
  try {
    return (await jwtVerify(token, resolve, options)).payload;
  } catch (error) {
    if (errorCode(error) !== "ERR_JWKS_MULTIPLE_MATCHING_KEYS") throw error;
    let last: unknown = error;
    for await (const key of error as AsyncIterable<Parameters<typeof jwtVerify>[1]>) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (failure) {
        last = failure;
      }
    }
    throw last;
  }
}

/** Whether a token is valid for the organisation's settings, and whose it is. */
export async function checkJwt(
  token: string,
  settings: JwtSettings,
  store: JwtKeyStore,
): Promise<JwtCheck> {
  if (!settings.publicCertsUrl || !settings.issuer || !settings.audience) {
    return {
      valid: false,
      reason: "JWT login needs the public certificates address, the issuer and the audience.",
    };
  }
  let payload: JWTPayload;
  try {
    const keys = await store.keys(settings.publicCertsUrl);
    try {
      payload = await verifyWith(token, keys.resolve, settings);
    } catch (error) {
      // A key the cached set lacks: the issuer may have rotated its keys since.
      if (errorCode(error) !== "ERR_JWKS_NO_MATCHING_KEY") throw error;
      const fresh = await store.keys(settings.publicCertsUrl, { refresh: true });
      payload = await verifyWith(token, fresh.resolve, settings);
    }
  } catch (error) {
    return { valid: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (typeof payload.email !== "string" || !payload.email.trim()) {
    return { valid: false, reason: "The token has no email claim." };
  }
  return { valid: true, email: payload.email };
}
