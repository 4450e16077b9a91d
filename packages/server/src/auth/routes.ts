// The sign-in pages and flows served by the server (api-platform.md §3), by concern in ./routes/:
// first-run setup, login and logout, the invite and reset links, email verification, and forgot
// password. Registered in this order, the order of the API docs.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { docs } from "./routes/docs";
import { emailVerificationRoutes } from "./routes/emailVerificationRoutes";
import { forgotPasswordRoutes } from "./routes/forgotPasswordRoutes";
import { loginRoutes } from "./routes/loginRoutes";
import { passwordLinkRoutes } from "./routes/passwordLinkRoutes";
import { setupRoutes } from "./routes/setupRoutes";
import { ldapRoutes } from "./providers/ldap";
import { oidcRoutes } from "./providers/oidc";
import { samlRoutes } from "./providers/saml";
import { trustedHeaderRoutes } from "./providers/trustedHeader";
import { registerTestSignIn } from "./providers/testSignIn";

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/ping", { schema: docs.ping }, async (_request, reply) =>
    reply.type("text/plain").send("PONG."),
  );
  registerTestSignIn(app, ctx);
  setupRoutes(app, ctx);
  loginRoutes(app, ctx);
  passwordLinkRoutes(app, ctx);
  emailVerificationRoutes(app, ctx);
  forgotPasswordRoutes(app, ctx);
  trustedHeaderRoutes(app, ctx);
  oidcRoutes(app, ctx);
  samlRoutes(app, ctx);
  ldapRoutes(app, ctx);
}
