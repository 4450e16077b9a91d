/**
 * OpenID Connect sign-in (generic provider and the Google preset). Not built yet: the login page
 * shows no button and no route is registered.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Organization } from "../../store/organizations";

export function oidcButtons(_ctx: AppContext, _org: Organization | null, _next: string): string {
  return "";
}

export function oidcRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
