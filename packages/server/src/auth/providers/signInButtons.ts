/** The login page's buttons for every sign-in method that is on, below the password form. */
import type { AppContext } from "../../context";
import type { Organization } from "../../store/organizations";
import { ldapButton } from "./ldap";
import { oidcButtons } from "./oidc";
import { samlButton } from "./saml";
import { remoteUserButton } from "./trustedHeader";

export function signInButtons(ctx: AppContext, org: Organization | null, next: string): string {
  return [
    oidcButtons(ctx, org, next),
    samlButton(ctx, org, next),
    ldapButton(ctx, org, next),
    remoteUserButton(ctx, next),
  ].join("");
}
