// Sightline's own SAML signing key (SIGHTLINE_SAML_SP_PRIVATE_KEY and _CERTIFICATE): its
// AuthnRequests, LogoutRequests and LogoutResponses carry a redirect signature the provider checks with the
// certificate the metadata publishes; without the key they go unsigned, as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { TestClient } from "../../testing/httpClient";
import { startLoggedServer, type LoggedServer } from "../../testing/testServer";
import {
  keyPair,
  redirectSignatureValid,
  startTestIdp,
  useDynamicSaml,
  type TestIdp,
} from "./samlTestIdp";

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const certBody = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s+/g, "");

describe("SAML requests signed with Sightline's own key", () => {
  let idp: TestIdp;
  let server: LoggedServer;
  let sp: { key: string; cert: string };
  let other: { key: string; cert: string };

  beforeAll(async () => {
    [idp, sp, other] = await Promise.all([startTestIdp(), keyPair("sightline"), keyPair("x")]);
    server = await startLoggedServer({
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8",
      // As an operator puts a PEM in one line of an env file.
      SIGHTLINE_SAML_SP_PRIVATE_KEY: sp.key.trim().replace(/\r?\n/g, "\\n"),
      SIGHTLINE_SAML_SP_CERTIFICATE: sp.cert,
    });
    await useDynamicSaml(server.url, idp);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  it("publishes its certificate and says its requests are signed", async () => {
    const metadata = await new TestClient(server.url).get<string>("/saml/metadata");
    expect(metadata.text).toContain('AuthnRequestsSigned="true"');
    expect(metadata.text).toContain('use="signing"');
    expect(metadata.text.replace(/\s+/g, "")).toContain(certBody(sp.cert));
    expect(metadata.text).not.toContain("PRIVATE KEY");
  });

  it("signs the sign-in and the logout requests; the provider checks them with that certificate", async () => {
    idp.user = { nameId: "signed.user@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = new TestClient(server.url);
    client.sendCsrf = false;
    const login = (await client.get("/saml/login")).headers.get("location")!;
    expect(login.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(redirectSignatureValid(login, sp.cert)).toBe(true);
    expect(redirectSignatureValid(login, other.cert)).toBe(false);
    const request = idp.readRequest(login);
    const signedIn = await client.request<string>("POST", "/saml/callback?org_slug=default", {
      form: { SAMLResponse: idp.respond(request), RelayState: request.relayState },
    });
    expect(signedIn.headers.get("location")).toBe("/");
    const logout = (await client.get("/logout")).headers.get("location")!;
    expect(logout.startsWith(`${idp.sloUrl}?SAMLRequest=`)).toBe(true);
    expect(redirectSignatureValid(logout, sp.cert)).toBe(true);
    const back = await fetch(logout, { redirect: "manual" });
    expect(idp.logoutRequests.at(-1)?.nameId).toBe("signed.user@example.com");
    const answered = await client.get(back.headers.get("location")!.slice(server.url.length));
    expect(answered.headers.get("location")).toBe("/login");
  });

  it("signs its answer to a logout the provider starts", async () => {
    idp.user = { nameId: "answered.user@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = new TestClient(server.url);
    client.sendCsrf = false;
    const request = idp.readRequest((await client.get("/saml/login")).headers.get("location")!);
    await client.request("POST", "/saml/callback?org_slug=default", {
      form: { SAMLResponse: idp.respond(request), RelayState: request.relayState },
    });
    const started = idp.logoutRequestUrl(`${server.url}/saml/logout?org_slug=default`, {
      nameId: "answered.user@example.com",
    });
    const answer = (await client.get(started.slice(server.url.length))).headers.get("location")!;
    expect(answer.startsWith(`${idp.sloUrl}?SAMLResponse=`)).toBe(true);
    expect(redirectSignatureValid(answer, sp.cert)).toBe(true);
    expect((await client.get("/api/session")).status).not.toBe(200);
  });

  it("keeps the key out of the log", () => {
    const key = certBody(sp.key).slice(0, 40);
    expect(server.logSince(0)).not.toContain(key);
  });
});

describe("SAML signing key settings", () => {
  const base = { SIGHTLINE_DATA_DIR: "/tmp/unused" };
  it("takes the key and certificate together, checked, or neither", async () => {
    const [sp, other] = await Promise.all([keyPair("sightline"), keyPair("x")]);
    expect(loadConfig(base).saml.signing).toBeNull();
    const both = loadConfig({
      ...base,
      SIGHTLINE_SAML_SP_PRIVATE_KEY: sp.key,
      SIGHTLINE_SAML_SP_CERTIFICATE: sp.cert,
    });
    expect(both.saml.signing?.certificate).toContain("BEGIN CERTIFICATE");
    expect(() => loadConfig({ ...base, SIGHTLINE_SAML_SP_PRIVATE_KEY: sp.key })).toThrow(
      "SIGHTLINE_SAML_SP_PRIVATE_KEY and SIGHTLINE_SAML_SP_CERTIFICATE are set together",
    );
    expect(() =>
      loadConfig({
        ...base,
        SIGHTLINE_SAML_SP_PRIVATE_KEY: "not a key",
        SIGHTLINE_SAML_SP_CERTIFICATE: sp.cert,
      }),
    ).toThrow("SIGHTLINE_SAML_SP_PRIVATE_KEY must be a PEM private key");
    expect(() =>
      loadConfig({
        ...base,
        SIGHTLINE_SAML_SP_PRIVATE_KEY: sp.key,
        SIGHTLINE_SAML_SP_CERTIFICATE:
          "-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----",
      }),
    ).toThrow("SIGHTLINE_SAML_SP_CERTIFICATE must be a PEM certificate");
    expect(() =>
      loadConfig({
        ...base,
        SIGHTLINE_SAML_SP_PRIVATE_KEY: sp.key,
        SIGHTLINE_SAML_SP_CERTIFICATE: other.cert,
      }),
    ).toThrow("SIGHTLINE_SAML_SP_CERTIFICATE is not the certificate of the key");
  });
});
