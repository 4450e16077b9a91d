/**
 * A SAML identity provider for tests, on 127.0.0.1: it takes an HTTP-Redirect AuthnRequest,
 * answers with a Response whose assertion it signs (xml-crypto, RSA-SHA256, exclusive C14N) with a
 * key and certificate made when it starts (selfsigned), and shows the auto-posting form a real
 * provider shows. Each answer can be bent for the attack tests (unsigned, signed by another key,
 * changed after signing, another audience or recipient, expired, ...). It serves its metadata too.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";
import { setUpAndLogin, type TestClient } from "../../testing/httpClient";

export interface TestUser {
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
}

export interface ResponseOptions {
  /** "assertion" (default): signed; "none": unsigned; "other-key": signed by a key not ours;
   *  "tampered": signed, then the NameID changed. */
  signing?: "assertion" | "none" | "other-key" | "tampered";
  audience?: string;
  recipient?: string;
  destination?: string | null;
  inResponseTo?: string;
  issuer?: string;
  /** Seconds from now. */
  notBefore?: number;
  notOnOrAfter?: number;
  assertionId?: string;
  /** A status other than Success: the provider refused, and the response has no assertion. */
  status?: string;
}

export interface AuthnRequestInfo {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string;
}

export interface LogoutRequestInfo {
  id: string;
  issuer: string;
  nameId: string;
  sessionIndex: string;
  destination: string;
}

export interface StartedLogout {
  nameId: string;
  /** Left out: the request names no SessionIndex (every session of the NameID). */
  sessionIndex?: string;
  signing?: "ours" | "none" | "other-key";
  relayState?: string;
}

export interface LogoutResponseInfo {
  inResponseTo: string;
  status: string;
  destination: string;
  issuer: string;
  relayState: string;
}

export interface TestIdp {
  url: string;
  /** The SingleLogoutService (HTTP-Redirect) the metadata names. */
  sloUrl: string;
  /** The LogoutRequests received at the SLO page, oldest first. */
  logoutRequests: LogoutRequestInfo[];
  /** How the next LogoutResponse is signed (redirect binding): ours, none, or another key. */
  logoutSigning: "ours" | "none" | "other-key";
  /** Where the LogoutResponse goes (the service provider's SLO address, as its metadata says). */
  logoutReturnUrl: string;
  entityId: string;
  ssoUrl: string;
  metadataUrl: string;
  /** The certificate's base64, as an admin pastes it on the settings page. */
  certificate: string;
  metadata(): string;
  /** How many times the metadata was fetched over HTTP. */
  metadataFetches: number;
  /** Who signs in at the next request to the SSO page. */
  user: TestUser;
  /** Reads the AuthnRequest in a redirect to the SSO URL. */
  readRequest(location: string): AuthnRequestInfo;
  /** Records the LogoutRequest in a redirect to the SLO URL; the LogoutResponse redirect back. */
  logout(location: string): string;
  /** A base64 SAMLResponse for the request. */
  respond(request: AuthnRequestInfo, options?: ResponseOptions): string;
  /** The SessionIndex of the last assertion made by `respond`. */
  lastSessionIndex: string;
  /**
   * A logout this provider starts: the service provider's SLO address (`sloUrl`, with its
   * query) with a LogoutRequest for the NameID, signed by our key, none or another key.
   */
  logoutRequestUrl(sloUrl: string, request: StartedLogout): string;
  /** Reads the LogoutResponse in a redirect to the SLO URL. */
  readLogoutResponse(location: string): LogoutResponseInfo;
  close(): Promise<void>;
}

const EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";

function xmlText(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A self-signed RSA key and certificate (PEM), as an identity provider or Sightline holds. */
export async function keyPair(
  commonName = "sightline-test-idp",
): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: "commonName", value: commonName }], {
    keySize: 2048,
    algorithm: "sha256",
  });
  return { key: pems.private, cert: pems.cert };
}

function certBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

function sign(xml: string, key: string, cert: string): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", EXC_C14N],
  });
  sig.computeSignature(xml, {
    prefix: "ds",
    location: {
      reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
      action: "after",
    },
  });
  return sig.getSignedXml();
}

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";

/**
 * Whether an HTTP-Redirect message's signature verifies with `certificate` (PEM): RSA-SHA256 over
 * `SAMLRequest=…&RelayState=…&SigAlg=…` as they stand in the query (the binding's order); null
 * when the redirect carries no signature.
 */
export function redirectSignatureValid(location: string, certificate: string): boolean | null {
  const query = location.split("?")[1] ?? "";
  const raw = new Map(
    query.split("&").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at), part.slice(at + 1)] as const;
    }),
  );
  const signature = raw.get("Signature");
  if (signature === undefined) return null;
  if (decodeURIComponent(raw.get("SigAlg") ?? "") !== RSA_SHA256) return false;
  const signed = ["SAMLRequest", "SAMLResponse", "RelayState", "SigAlg"]
    .filter((name) => raw.has(name))
    .map((name) => `${name}=${raw.get(name)}`)
    .join("&");
  return crypto
    .createVerify("RSA-SHA256")
    .update(signed)
    .verify(certificate, decodeURIComponent(signature), "base64");
}

export async function startTestIdp(): Promise<TestIdp> {
  const ours = await keyPair();
  const attacker = await keyPair();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", idp.url);
    if (url.pathname === "/metadata") {
      idp.metadataFetches += 1;
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" });
      res.end(idp.metadata());
      return;
    }
    if (url.pathname === "/sso") {
      try {
        const request = idp.readRequest(url.href);
        const response = idp.respond(request);
        // What a real provider shows after signing in: a form that posts itself to the ACS.
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(`<!doctype html><html><body onload="document.forms[0].submit()">
<form method="post" action="${xmlText(request.acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${response}">
<input type="hidden" name="RelayState" value="${xmlText(request.relayState)}">
<noscript><button type="submit">Continue</button></noscript></form></body></html>`);
      } catch {
        res.writeHead(400).end("bad request");
      }
      return;
    }
    if (url.pathname === "/slo") {
      try {
        res.writeHead(302, { location: idp.logout(url.href) }).end();
      } catch {
        res.writeHead(400).end("bad request");
      }
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp: TestIdp = {
    url: base,
    sloUrl: `${base}/slo`,
    logoutRequests: [],
    logoutSigning: "ours",
    logoutReturnUrl: "",
    entityId: `${base}/idp`,
    ssoUrl: `${base}/sso`,
    metadataUrl: `${base}/metadata`,
    certificate: certBody(ours.cert),
    metadataFetches: 0,
    user: { nameId: "saml.user@example.com", nameIdFormat: EMAIL },

    metadata() {
      return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(attacker.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>${EMAIL}</md:NameIDFormat>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.sloUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/sso-post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
    },

    readRequest(location) {
      const url = new URL(location);
      const encoded = url.searchParams.get("SAMLRequest") ?? "";
      const xml = zlib.inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
      const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1] ?? "";
      const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? "";
      return {
        id: attr("ID"),
        acsUrl: attr("AssertionConsumerServiceURL").replace(/&amp;/g, "&"),
        issuer,
        relayState: url.searchParams.get("RelayState") ?? "",
      };
    },

    lastSessionIndex: "",

    logoutRequestUrl(sloUrl, started) {
      const id = `_lr${crypto.randomBytes(16).toString("hex")}`;
      const index = started.sessionIndex
        ? `<samlp:SessionIndex>${xmlText(started.sessionIndex)}</samlp:SessionIndex>`
        : "";
      const xml = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${xmlText(sloUrl)}"><saml:Issuer>${xmlText(this.entityId)}</saml:Issuer><saml:NameID Format="${EMAIL}">${xmlText(started.nameId)}</saml:NameID>${index}</samlp:LogoutRequest>`;
      const query = new URLSearchParams({
        SAMLRequest: zlib.deflateRawSync(Buffer.from(xml, "utf8")).toString("base64"),
        ...(started.relayState ? { RelayState: started.relayState } : {}),
        SigAlg: RSA_SHA256,
      }).toString();
      const signing = started.signing ?? "ours";
      if (signing === "none") return `${sloUrl}&${query}`;
      const key = signing === "ours" ? ours.key : attacker.key;
      const signature = crypto.createSign("RSA-SHA256").update(query).sign(key, "base64");
      return `${sloUrl}&${query}&${new URLSearchParams({ Signature: signature }).toString()}`;
    },

    readLogoutResponse(location) {
      const url = new URL(location);
      const encoded = url.searchParams.get("SAMLResponse") ?? "";
      const xml = zlib.inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
      const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1] ?? "";
      return {
        inResponseTo: attr("InResponseTo"),
        status: /<(?:\w+:)?StatusCode\b[^>]*\bValue="([^"]*)"/.exec(xml)?.[1] ?? "",
        destination: attr("Destination").replace(/&amp;/g, "&"),
        issuer: /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? "",
        relayState: url.searchParams.get("RelayState") ?? "",
      };
    },

    logout(location) {
      const url = new URL(location);
      const encoded = url.searchParams.get("SAMLRequest") ?? "";
      const xml = zlib.inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
      const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1] ?? "";
      const text = (tag: string) =>
        new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*>([^<]*)<`).exec(xml)?.[1] ?? "";
      const request = {
        id: attr("ID"),
        issuer: text("Issuer"),
        nameId: text("NameID"),
        sessionIndex: text("SessionIndex"),
        destination: attr("Destination").replace(/&amp;/g, "&"),
      };
      this.logoutRequests.push(request);
      const back = this.logoutReturnUrl;
      const response = `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l${crypto.randomBytes(16).toString("hex")}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${xmlText(back)}" InResponseTo="${xmlText(request.id)}"><saml:Issuer>${xmlText(this.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
      const query = new URLSearchParams({
        SAMLResponse: zlib.deflateRawSync(Buffer.from(response, "utf8")).toString("base64"),
        RelayState: "https://evil.example/after-logout",
        SigAlg: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      }).toString();
      if (this.logoutSigning === "none") return `${back}&${query}`;
      const key = this.logoutSigning === "ours" ? ours.key : attacker.key;
      const signature = crypto.createSign("RSA-SHA256").update(query).sign(key, "base64");
      return `${back}&${query}&${new URLSearchParams({ Signature: signature }).toString()}`;
    },

    respond(request, options = {}) {
      const now = Date.now();
      const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
      const notBefore = at(options.notBefore ?? -5);
      const notOnOrAfter = at(options.notOnOrAfter ?? 300);
      const inResponseTo = options.inResponseTo ?? request.id;
      const recipient = options.recipient ?? request.acsUrl;
      const destination = options.destination === undefined ? request.acsUrl : options.destination;
      const issuer = options.issuer ?? this.entityId;
      const assertionId = options.assertionId ?? `_a${crypto.randomBytes(16).toString("hex")}`;
      const sessionIndex = `_s${crypto.randomBytes(8).toString("hex")}`;
      this.lastSessionIndex = sessionIndex;
      const user = this.user;
      const attributes = Object.entries(user.attributes ?? {})
        .map(
          ([name, value]) =>
            `<saml:Attribute Name="${xmlText(name)}">${(Array.isArray(value) ? value : [value])
              .map((v) => `<saml:AttributeValue>${xmlText(v)}</saml:AttributeValue>`)
              .join("")}</saml:Attribute>`,
        )
        .join("");
      const format = user.nameIdFormat ? ` Format="${user.nameIdFormat}"` : "";
      const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${xmlText(issuer)}</saml:Issuer><saml:Subject><saml:NameID${format}>${xmlText(user.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${xmlText(inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlText(recipient)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${xmlText(options.audience ?? request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : ""}</saml:Assertion>`;
      const destinationAttr = destination === null ? "" : ` Destination="${xmlText(destination)}"`;
      let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomBytes(16).toString("hex")}" Version="2.0" IssueInstant="${at(0)}"${destinationAttr} InResponseTo="${xmlText(inResponseTo)}"><saml:Issuer>${xmlText(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
      if (options.status) {
        const refused = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomBytes(16).toString("hex")}" Version="2.0" IssueInstant="${at(0)}"${destinationAttr} InResponseTo="${xmlText(inResponseTo)}"><saml:Issuer>${xmlText(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${xmlText(options.status)}"/><samlp:StatusMessage>Access denied for secret.reason</samlp:StatusMessage></samlp:Status></samlp:Response>`;
        return Buffer.from(refused, "utf8").toString("base64");
      }
      const signing = options.signing ?? "assertion";
      if (signing === "assertion" || signing === "tampered") xml = sign(xml, ours.key, ours.cert);
      if (signing === "other-key") xml = sign(xml, attacker.key, attacker.cert);
      if (signing === "tampered") {
        xml = xml.replace(
          `>${xmlText(user.nameId)}</saml:NameID>`,
          ">admin@example.com</saml:NameID>",
        );
      }
      return Buffer.from(xml, "utf8").toString("base64");
    },

    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return idp;
}

/**
 * Sets up a fresh Sightline at `baseUrl` and turns SAML on (dynamic, from the provider's
 * metadata), the provider answering logouts at its SLO address; returns the signed-in admin.
 */
export async function useDynamicSaml(baseUrl: string, idp: TestIdp): Promise<TestClient> {
  idp.logoutReturnUrl = `${baseUrl}/saml/logout?org_slug=default`;
  const admin = await setUpAndLogin(baseUrl);
  const saved = await admin.post("/api/settings/organization", {
    auth_saml_enabled: true,
    auth_saml_type: "dynamic",
    auth_saml_metadata_url: idp.metadataUrl,
  });
  if (saved.status !== 200) throw new Error(`SAML settings not saved: ${saved.text}`);
  return admin;
}
