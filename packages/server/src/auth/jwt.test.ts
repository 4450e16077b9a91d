import { X509Certificate, createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import type { OutboundClient, OutboundResponse } from "../outbound/client";
import { TEST_ISSUER_CERTIFICATE, TEST_ISSUER_PRIVATE_KEY } from "../testing/jwtIssuer";
import { JwtKeyStore, checkJwt, jwtOf, publicKeySet, type JwtSettings } from "./jwt";

const SETTINGS: JwtSettings = {
  issuer: "https://issuer.example",
  audience: "sightline",
  publicCertsUrl: "https://issuer.example/certs",
  algorithms: ["HS256", "RS256", "ES256"],
  cookieName: "jwt",
  headerName: "X-Jwt-Assertion",
};

/** An outbound client that serves whatever document the test holds, counting requests. */
function servedDocument() {
  const state = { document: {} as unknown, requests: 0 };
  const outbound: OutboundClient = {
    async request(url) {
      state.requests += 1;
      const body = Buffer.from(JSON.stringify(state.document));
      const response: OutboundResponse = {
        status: 200,
        url,
        headers: {},
        body,
        text: () => body.toString(),
        json: () => JSON.parse(body.toString()),
      };
      return response;
    },
  };
  return { state, outbound };
}

async function issuerKey(kid?: string) {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), ...(kid ? { kid } : {}), alg: "RS256" };
  const sign = (
    claims: Record<string, unknown>,
    options: { audience?: string; exp?: string } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", ...(kid ? { kid } : {}) })
      .setIssuer(SETTINGS.issuer)
      .setAudience(options.audience ?? SETTINGS.audience)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? "5m")
      .sign(privateKey);
  return { jwk, sign, privateKey };
}

describe("JWT login checks", () => {
  it("accepts a token signed by a key of the issuer's set, and names its email", async () => {
    const { state, outbound } = servedDocument();
    const key = await issuerKey("k1");
    state.document = { keys: [key.jwk] };
    const check = await checkJwt(
      await key.sign({ email: "ada@example.com" }),
      SETTINGS,
      new JwtKeyStore(outbound),
    );
    expect(check).toEqual({ valid: true, email: "ada@example.com" });
  });

  it("refuses another audience, an expired token, another key and a token without email", async () => {
    const { state, outbound } = servedDocument();
    const key = await issuerKey("k1");
    const stranger = await issuerKey("k1");
    state.document = { keys: [key.jwk] };
    const store = new JwtKeyStore(outbound);
    const isValid = async (token: string) => (await checkJwt(token, SETTINGS, store)).valid;
    expect(await isValid(await key.sign({ email: "a@example.com" }, { audience: "other" }))).toBe(
      false,
    );
    expect(await isValid(await key.sign({ email: "a@example.com" }, { exp: "-1m" }))).toBe(false);
    expect(await isValid(await stranger.sign({ email: "a@example.com" }))).toBe(false);
    expect(await checkJwt(await key.sign({ sub: "x" }), SETTINGS, store)).toEqual({
      valid: false,
      reason: "The token has no email claim.",
    });
    expect(await isValid("not.a.token")).toBe(false);
    const forever = await new SignJWT({ email: "a@example.com" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(SETTINGS.issuer)
      .setAudience(SETTINGS.audience)
      .sign(key.privateKey);
    expect(await isValid(forever)).toBe(false);
  });

  it("refuses every token while the issuer, audience or keys address is missing", async () => {
    const { state, outbound } = servedDocument();
    const key = await issuerKey("k1");
    state.document = { keys: [key.jwk] };
    const token = await key.sign({ email: "a@example.com" });
    const check = await checkJwt(token, { ...SETTINGS, audience: "" }, new JwtKeyStore(outbound));
    expect(check.valid).toBe(false);
    expect(state.requests).toBe(0);
  });

  it("tries every key of a set whose keys have no id", async () => {
    const { state, outbound } = servedDocument();
    const first = await issuerKey();
    const second = await issuerKey();
    state.document = { keys: [first.jwk, second.jwk] };
    const check = await checkJwt(
      await second.sign({ email: "b@example.com" }),
      SETTINGS,
      new JwtKeyStore(outbound),
    );
    expect(check).toEqual({ valid: true, email: "b@example.com" });
  });

  it("reads certificates by key id, as Google's and some proxies' addresses serve them", async () => {
    const { state, outbound } = servedDocument();
    state.document = { "cert-1": TEST_ISSUER_CERTIFICATE };
    const token = await new SignJWT({ email: "c@example.com" })
      .setProtectedHeader({ alg: "ES256", kid: "cert-1" })
      .setIssuer(SETTINGS.issuer)
      .setAudience(SETTINGS.audience)
      .setExpirationTime("5m")
      .sign(createPrivateKey(TEST_ISSUER_PRIVATE_KEY));
    const check = await checkJwt(token, SETTINGS, new JwtKeyStore(outbound));
    expect(check).toEqual({ valid: true, email: "c@example.com" });
    // The set holds the certificate's own public key.
    const [jwk] = publicKeySet(state.document).keys;
    const certificateKey = new X509Certificate(TEST_ISSUER_CERTIFICATE).publicKey.export({
      format: "jwk",
    });
    expect(jwk).toMatchObject({ ...certificateKey, kid: "cert-1" });
  });

  it("caches the keys, and reads them again for an unknown key id at most once a minute", async () => {
    const { state, outbound } = servedDocument();
    let now = 1_000_000;
    const store = new JwtKeyStore(outbound, () => now);
    const old = await issuerKey("old");
    const rotated = await issuerKey("new");
    state.document = { keys: [old.jwk] };
    expect(
      (await checkJwt(await old.sign({ email: "a@example.com" }), SETTINGS, store)).valid,
    ).toBe(true);
    expect(
      (await checkJwt(await old.sign({ email: "a@example.com" }), SETTINGS, store)).valid,
    ).toBe(true);
    expect(state.requests).toBe(1);

    // The issuer rotates its keys: within the minute the cached set is kept.
    state.document = { keys: [rotated.jwk] };
    const token = await rotated.sign({ email: "a@example.com" });
    expect((await checkJwt(token, SETTINGS, store)).valid).toBe(false);
    expect(state.requests).toBe(1);
    now += 61_000;
    expect((await checkJwt(token, SETTINGS, store)).valid).toBe(true);
    expect(state.requests).toBe(2);
  });

  it("waits 30 seconds after a failed read of the keys before trying again", async () => {
    let now = 1_000_000;
    let requests = 0;
    const down: OutboundClient = {
      async request() {
        requests += 1;
        throw new Error("connect ECONNREFUSED");
      },
    };
    const store = new JwtKeyStore(down, () => now);
    const key = await issuerKey("k1");
    const token = await key.sign({ email: "a@example.com" });
    expect((await checkJwt(token, SETTINGS, store)).valid).toBe(false);
    expect((await checkJwt(token, SETTINGS, store)).valid).toBe(false);
    expect(requests).toBe(1);
    now += 31_000;
    expect((await checkJwt(token, SETTINGS, store)).valid).toBe(false);
    expect(requests).toBe(2);
  });

  it("reads the token from the named cookie first, then the named header", () => {
    const headers = { "x-jwt-assertion": "from-header" };
    expect(jwtOf({ cookies: { jwt: "from-cookie" }, headers }, SETTINGS)).toBe("from-cookie");
    expect(jwtOf({ cookies: {}, headers }, SETTINGS)).toBe("from-header");
    expect(jwtOf({ cookies: {}, headers }, { ...SETTINGS, headerName: "" })).toBeNull();
  });
});
