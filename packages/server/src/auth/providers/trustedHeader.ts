/**
 * Redash's remote-user login (GET /remote_user/login): a reverse proxy signs the person in and
 * names them by e-mail in a header (SIGHTLINE_REMOTE_USER_HEADER). The header is believed only
 * when the request itself comes from an address in SIGHTLINE_TRUSTED_PROXIES, so a client that
 * reaches Sightline directly cannot send it; the proxy must set (overwrite) the header on every
 * request it passes on. See docs/single-sign-on.md, "Reverse proxy".
 */
import { BlockList, isIP } from "node:net";
import { sanitizeNext } from "@sightline/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { hidden } from "../pages";
import { docs } from "../routes/docs";
import { completeSignIn, refuseSignIn, userForSignIn } from "./signIn";

/** Whether an address is one of the trusted proxies (addresses or CIDR ranges). */
export function proxyMatcher(proxies: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const proxy of proxies) {
    const [address = "", prefix] = proxy.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return list.check(mapped[1]!, "ipv4") || list.check(address, "ipv6");
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 6 ? "ipv6" : "ipv4");
  };
}

/** The e-mail the proxy put in the header, or null when there is none (Apache may send "(null)"). */
export function headerEmail(request: FastifyRequest, header: string): string | null {
  const raw = request.headers[header.toLowerCase()];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  if (value === "" || value === "(null)") return null;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? value : null;
}

/**
 * The login page's way to this sign-in while it is on, as Redash shows it ("Remote User Login"),
 * keeping `next`. A form, so it looks like the page's other button and works without JavaScript.
 */
export function remoteUserButton(ctx: AppContext, next: string): string {
  if (!ctx.config.remoteUserLoginEnabled) return "";
  const safe = sanitizeNext(next);
  return `<form method="get" action="/remote_user/login">${safe ? hidden("next", safe) : ""}<button type="submit">Remote User Login</button></form>`;
}

export function trustedHeaderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const fromTrustedProxy = proxyMatcher(config.trustedProxies);

  app.get("/remote_user/login", { schema: docs.remoteUserLogin }, async (request, reply) => {
    if (!config.remoteUserLoginEnabled) {
      return reply.code(404).send({ message: "Remote user login is not enabled." });
    }
    const q = request.query as Record<string, unknown>;
    const next = sanitizeNext(typeof q.next === "string" ? q.next : "");
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");

    // The peer of this connection, not the client X-Forwarded-For names: only the proxy itself.
    const peer = request.socket.remoteAddress;
    if (!fromTrustedProxy(peer)) {
      return refuseSignIn(request, reply, {
        error: "remote_user_untrusted",
        next,
        logMessage: "remote user login refused: the request did not come from a trusted proxy",
        log: { address: peer, header: config.remoteUserHeader },
      });
    }
    const email = headerEmail(request, config.remoteUserHeader);
    if (!email) {
      return refuseSignIn(request, reply, {
        error: "remote_user_missing",
        next,
        logMessage: "remote user login refused: the header holds no e-mail address",
        log: { header: config.remoteUserHeader },
      });
    }
    // The proxy authenticated the person under this address: it counts as verified. It names no
    // groups, so the user's groups are left alone.
    const identity = { email, name: "", verifiedEmail: true };
    const result = await userForSignIn(ctx, org, identity, false);
    if (!result.ok) {
      return refuseSignIn(request, reply, {
        error: result.reason,
        next,
        logMessage: "remote user login refused",
      });
    }
    return completeSignIn(request, reply, ctx, {
      user: result.user,
      created: result.created,
      remember: true,
      next,
      logMessage: "signed in by remote user header",
    });
  });
}
