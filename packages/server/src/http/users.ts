// The user routes (/api/users..., api-platform.md §7.1), by concern in ./users/: the list,
// inviting a new user, one user as a document, and actions on an account. Registered in this
// order, the order of the API docs.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { userActionRoutes } from "./users/actionRoutes";
import { userCreateRoutes } from "./users/createRoutes";
import { userDocumentRoutes } from "./users/documentRoutes";
import { userListRoutes } from "./users/listRoutes";
import { userSupport } from "./users/support";

export async function userRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const support = userSupport(ctx);
  userListRoutes(app, ctx);
  userCreateRoutes(app, ctx);
  userDocumentRoutes(app, ctx, support);
  userActionRoutes(app, ctx, support);
}
