/**
 * SAML 2.0 sign-in. Not built yet: the login page
 * shows no button and no route is registered.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Organization } from "../../store/organizations";

export function samlButton(_ctx: AppContext, _org: Organization | null, _next: string): string {
  return "";
}

export function samlRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
