/**
 * The organisation's SAML identity provider, as its settings describe it (auth_saml_*):
 * - "static": the SSO URL and signing certificate typed on the settings page;
 * - "dynamic": the provider's metadata URL, fetched through the guarded outbound client (so an
 *   internal address needs SIGHTLINE_OUTBOUND_ALLOWED_RANGES) and kept for an hour; the SSO URL
 *   (HTTP-Redirect binding), the signing certificates, the provider's entity id and its
 *   SingleLogoutService (HTTP-Redirect) come from it.
 */
import { DOMParser } from "@xmldom/xmldom";
import { OutboundError, type OutboundClient } from "../../outbound/client";
import { orgSetting } from "../../services/orgSettings";
import type { Organization } from "../../store/organizations";

export interface IdentityProvider {
  ssoUrl: string;
  /** PEM certificates the provider signs with (any of them may have signed). */
  certificates: string[];
  /** The provider's entity id, to check an assertion's issuer against; null: not checked. */
  entityId: string | null;
  /** The provider's SingleLogoutService (HTTP-Redirect), from its metadata; null: none. */
  logoutUrl: string | null;
}

/** The identity provider's settings are incomplete or its metadata unusable; the text is for logs. */
export class IdentityProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IdentityProviderError";
  }
}

const METADATA_LIFETIME_MS = 60 * 60 * 1000;
const METADATA_MAX_BYTES = 2 * 1024 * 1024;
const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/** A certificate as PEM, from PEM or the bare base64 of the settings page or metadata. */
export function toPem(certificate: string): string {
  const body = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** The SSO URL, certificates and entity id a metadata document gives. */
export function parseIdpMetadata(xml: string): IdentityProvider {
  let failed = false;
  const doc = new DOMParser({
    errorHandler: { error: () => (failed = true), fatalError: () => (failed = true) },
  }).parseFromString(xml, "text/xml");
  if (failed || !doc?.documentElement) throw new IdentityProviderError("metadata is not XML");
  const idps = Array.from(doc.getElementsByTagNameNS(MD, "IDPSSODescriptor"));
  const idp = idps[0];
  if (!idp) throw new IdentityProviderError("metadata has no IDPSSODescriptor");
  const descriptor = idp.parentNode as Element | null;
  const services = Array.from(idp.getElementsByTagNameNS(MD, "SingleSignOnService"));
  const redirect = services.find((s) => s.getAttribute("Binding") === REDIRECT_BINDING);
  const ssoUrl = redirect?.getAttribute("Location") ?? "";
  if (!httpUrl(ssoUrl)) {
    throw new IdentityProviderError("metadata has no HTTP-Redirect SingleSignOnService");
  }
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, "KeyDescriptor"))
    .filter((key) => (key.getAttribute("use") || "signing") === "signing")
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(DS, "X509Certificate")))
    .map((cert) => (cert.textContent ?? "").replace(/\s+/g, ""))
    .filter((cert) => cert.length > 0)
    .map(toPem);
  if (certificates.length === 0) {
    throw new IdentityProviderError("metadata has no signing certificate");
  }
  const entityId = descriptor?.getAttribute?.("entityID") || null;
  const logout = Array.from(idp.getElementsByTagNameNS(MD, "SingleLogoutService")).find(
    (s) => s.getAttribute("Binding") === REDIRECT_BINDING,
  );
  const logoutLocation = logout?.getAttribute("Location") ?? "";
  return {
    ssoUrl,
    certificates,
    entityId,
    logoutUrl: httpUrl(logoutLocation) ? logoutLocation : null,
  };
}

/** Identity providers by organisation settings, dynamic ones' metadata kept for an hour. */
export class IdentityProviders {
  private readonly cache = new Map<string, { at: number; idp: Promise<IdentityProvider> }>();

  constructor(private readonly outbound: OutboundClient) {}

  async forOrg(org: Organization): Promise<IdentityProvider> {
    if (orgSetting(org, "auth_saml_type") === "dynamic") {
      const url = orgSetting(org, "auth_saml_metadata_url").trim();
      if (!httpUrl(url)) throw new IdentityProviderError("no metadata URL");
      return this.metadata(url);
    }
    const ssoUrl = orgSetting(org, "auth_saml_sso_url").trim();
    const certificate = orgSetting(org, "auth_saml_x509_cert").trim();
    if (!httpUrl(ssoUrl)) throw new IdentityProviderError("no SSO URL");
    if (!certificate) throw new IdentityProviderError("no certificate");
    return { ssoUrl, certificates: [toPem(certificate)], entityId: null, logoutUrl: null };
  }

  private metadata(url: string): Promise<IdentityProvider> {
    const cached = this.cache.get(url);
    if (cached && Date.now() - cached.at < METADATA_LIFETIME_MS) return cached.idp;
    const idp = this.fetchMetadata(url);
    this.cache.set(url, { at: Date.now(), idp });
    // A failure is not kept: the next sign-in tries again.
    idp.catch(() => {
      if (this.cache.get(url)?.idp === idp) this.cache.delete(url);
    });
    return idp;
  }

  private async fetchMetadata(url: string): Promise<IdentityProvider> {
    let text: string;
    try {
      const response = await this.outbound.request(url, {
        headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
        timeoutMs: 10_000,
        maxResponseBytes: METADATA_MAX_BYTES,
      });
      if (response.status !== 200) {
        throw new IdentityProviderError(`metadata URL answered ${response.status}`);
      }
      text = response.text();
    } catch (err) {
      if (err instanceof IdentityProviderError) throw err;
      const reason = err instanceof OutboundError ? err.message : "request failed";
      throw new IdentityProviderError(`metadata could not be fetched: ${reason}`);
    }
    return parseIdpMetadata(text);
  }
}
