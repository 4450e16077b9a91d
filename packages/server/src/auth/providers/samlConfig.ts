/**
 * SAML settings from the environment. The identity provider's side (enabled, static or dynamic,
 * SSO URL, entity id, certificate, metadata URL, NameID format) is the organisation's settings
 * (auth_saml_*), edited on the settings page; only the service provider's own options are here.
 * See docs/single-sign-on.md, "SAML 2.0".
 */
import crypto from "node:crypto";
import { ConfigError, optional, type Env } from "../../configEnv";

/** Sightline's own key and certificate, with which it signs what it sends the provider. */
export interface SamlSigning {
  /** PEM. */
  privateKey: string;
  /** PEM; published in /saml/metadata for the provider to check the signatures. */
  certificate: string;
}

export interface SamlConfig {
  /** The SAML attribute holding group names, for group mapping; null: no mapping. */
  groupsAttribute: string | null;
  /** Set: AuthnRequests and LogoutRequests are signed (RSA-SHA256); null: sent unsigned. */
  signing: SamlSigning | null;
}

const KEY = "SIGHTLINE_SAML_SP_PRIVATE_KEY";
const CERT = "SIGHTLINE_SAML_SP_CERTIFICATE";

/** A PEM from a variable: as written, or on one line with "\n" for its line breaks. */
function pem(env: Env, name: string): string | null {
  const value = optional(env, name);
  return value === null ? null : `${value.replace(/\\n/g, "\n").trim()}\n`;
}

function samlSigning(env: Env): SamlSigning | null {
  const privateKey = pem(env, KEY);
  const certificate = pem(env, CERT);
  if (privateKey === null && certificate === null) return null;
  if (privateKey === null || certificate === null) {
    throw new ConfigError(`${KEY} and ${CERT} are set together (PEM texts), or neither`);
  }
  let key: crypto.KeyObject;
  let cert: crypto.X509Certificate;
  try {
    key = crypto.createPrivateKey(privateKey);
  } catch {
    throw new ConfigError(`${KEY} must be a PEM private key (-----BEGIN PRIVATE KEY-----…)`);
  }
  try {
    cert = new crypto.X509Certificate(certificate);
  } catch {
    throw new ConfigError(`${CERT} must be a PEM certificate (-----BEGIN CERTIFICATE-----…)`);
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw new ConfigError(`${KEY} must be an RSA key: SAML's redirect signatures use RSA-SHA256`);
  }
  if (!cert.checkPrivateKey(key)) {
    throw new ConfigError(`${CERT} is not the certificate of the key in ${KEY}`);
  }
  return { privateKey, certificate };
}

export function samlConfig(env: Env): SamlConfig {
  return {
    groupsAttribute: optional(env, "SIGHTLINE_SAML_GROUPS_ATTRIBUTE"),
    signing: samlSigning(env),
  };
}

/** node-saml's options for signing what Sightline sends, when it has a key; else none. */
export function signingOptions(config: SamlConfig): {
  privateKey?: string;
  signatureAlgorithm?: "sha256";
} {
  return config.signing
    ? { privateKey: config.signing.privateKey, signatureAlgorithm: "sha256" }
    : {};
}
