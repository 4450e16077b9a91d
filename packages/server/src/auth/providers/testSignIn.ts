/**
 * "Test sign-in" from the settings page: an admin runs a method's whole flow (its login path with
 * `?test=1`), and at the end sees who the provider said they are and what Sightline would do,
 * without a session being started or a user created or changed. Not built yet.
 */
import type { FastifyReply } from "fastify";
import type { OutsideIdentity } from "./justInTime";

export type SignInMethod = "oidc" | "google" | "saml" | "ldap";

/** The page at the end of a test sign-in: the identity the method gave, or why it failed. */
export function sendTestSignInResult(
  reply: FastifyReply,
  method: SignInMethod,
  outcome: { identity: OutsideIdentity } | { error: string },
): FastifyReply {
  return reply
    .code(200)
    .type("application/json")
    .send({ method, ...outcome });
}
