/**
 * For tests: a real OpenID provider (the certified `oidc-provider` package) on 127.0.0.1, with a
 * sign-in page of its own (an e-mail field: the account to sign in as) and a way to tamper with
 * the next ID token it issues (other claims, signed by another key, or not signed at all), so the
 * tests can play the attacker between the provider and Sightline.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as jose from "jose";
import Provider, { type ClientMetadata, type KoaContextWithOIDC } from "oidc-provider";

export type AccountClaims = Record<string, unknown>;

export interface TestIdTokenTamper {
  /** Changes the signed token's claims (exp, aud, iss, email, ...). */
  claims?: (payload: Record<string, unknown>) => void;
  /** Who signs the changed token: the provider's key (default), another key, or nobody. */
  signer?: "provider" | "attacker" | "none";
}

export interface TestOidcProvider {
  issuer: string;
  /** Accounts by id (what the sign-in page's field takes); their claims are released by scope. */
  accounts: Map<string, AccountClaims>;
  /** Registers relying parties (replaces the earlier ones). */
  setClients(clients: ClientMetadata[]): void;
  /** The next token response's ID token is changed so. */
  tamperNextIdToken(tamper: TestIdTokenTamper): void;
  close(): Promise<void>;
}

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test Identity Provider</title>
<style>body{font-family:sans-serif;background:#222b38;color:#fff;display:flex;justify-content:center;padding:48px 12px}
main{background:#fff;color:#222;border-radius:6px;padding:24px;width:100%;max-width:340px}
input{width:100%;box-sizing:border-box;padding:8px;margin:8px 0 16px;font-size:15px}
button{width:100%;padding:9px;background:#0b7a43;color:#fff;border:0;border-radius:4px;font-size:15px}</style></head>
<body><main>${body}</main></body></html>`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true });
  const kid = crypto.randomBytes(8).toString("hex");
  const providerJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const attacker = await jose.generateKeyPair("RS256");
  const accounts = new Map<string, AccountClaims>();
  let provider: Provider | null = null;
  let tamper: TestIdTokenTamper | null = null;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function retoken(body: string): Promise<string> {
    const change = tamper;
    tamper = null;
    const json = JSON.parse(body) as { id_token?: string };
    if (!change || !json.id_token) return body;
    const payload = jose.decodeJwt(json.id_token) as Record<string, unknown>;
    change.claims?.(payload);
    const signer = change.signer ?? "provider";
    if (signer === "none") {
      const part = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
      json.id_token = `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.`;
    } else {
      const key = signer === "attacker" ? attacker.privateKey : privateKey;
      json.id_token = await new jose.SignJWT(payload)
        .setProtectedHeader({ alg: "RS256", kid })
        .sign(key);
    }
    return JSON.stringify(json);
  }

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider!.interactionDetails(req, res);
    if (req.method === "GET") {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(
        page(`<h1>Test Identity Provider</h1><form method="post" action="/interaction/${escape(details.uid)}">
<label for="login">Email</label><input id="login" name="login" autofocus><button type="submit">Sign in</button></form>`),
      );
      return;
    }
    const login = (await readForm(req)).get("login") ?? "";
    if (!accounts.has(login)) {
      res.statusCode = 400;
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(page("<p>No such account.</p>"));
      return;
    }
    const clientId = String(details.params.client_id);
    const grant = new provider!.Grant({ accountId: login, clientId });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider!.interactionFinished(
      req,
      res,
      { login: { accountId: login }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (path.startsWith("/interaction/")) {
      interaction(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    if (path === "/token" && req.method === "POST" && tamper) {
      // Koa ends the answer with its whole body: rewrite it there.
      const end = res.end.bind(res) as (chunk?: unknown) => http.ServerResponse;
      res.end = ((chunk?: unknown) => {
        retoken(Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk ?? ""))
          .then((body) => {
            res.setHeader("content-length", Buffer.byteLength(body));
            end(body);
          })
          .catch(() => end(chunk));
        return res;
      }) as typeof res.end;
    }
    void provider.callback()(req, res);
  });

  return {
    issuer,
    accounts,
    setClients(clients) {
      provider = new Provider(issuer, {
        clients,
        jwks: { keys: [providerJwk as never] },
        cookies: { keys: [crypto.randomBytes(16).toString("hex")] },
        claims: {
          openid: ["sub"],
          email: ["email", "email_verified", "hd"],
          profile: ["name"],
          groups: ["groups"],
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: KoaContextWithOIDC, i) => `/interaction/${i.uid}` },
        findAccount: (_ctx, id) => {
          const claims = accounts.get(id);
          if (!claims) return undefined;
          return { accountId: id, claims: () => ({ sub: id, ...claims }) };
        },
      });
    },
    tamperNextIdToken(change) {
      tamper = change;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
