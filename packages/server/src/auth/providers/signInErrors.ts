/**
 * Why a sign-in through an outside provider was refused, carried to the login page as
 * `/login?sso_error=<code>`: the page shows the fixed text of a known code and nothing for any
 * other value, so the address cannot put words of its own on the page.
 */
import type { RefusalReason } from "./justInTime";

export type SignInError =
  | RefusalReason
  | "remote_user_missing"
  | "remote_user_untrusted"
  | "oidc_state"
  | "oidc_denied"
  | "oidc_invalid"
  | "oidc_unavailable"
  | "google_domain"
  | "saml_request"
  | "saml_denied"
  | "saml_invalid"
  | "saml_unavailable";

const MESSAGES: Record<SignInError, string> = {
  invalid_email: "Your sign-in did not give a valid e-mail address that may use Sightline.",
  unverified_email: "Your sign-in provider did not confirm your e-mail address.",
  disabled: "Your account is disabled. Ask an administrator to enable it.",
  remote_user_missing:
    "The reverse proxy did not say who you are. Sign in through the proxy, or ask an administrator.",
  remote_user_untrusted:
    "Sign-in by reverse proxy is only accepted from the proxy itself. Ask an administrator.",
  oidc_state:
    "This sign-in was not started in this browser, was already used or took too long. Please try again.",
  oidc_denied: "Your identity provider did not sign you in.",
  oidc_invalid:
    "Your identity provider's answer could not be verified, so you were not signed in. Ask an administrator if this happens again.",
  oidc_unavailable:
    "Your identity provider could not be reached. Try again later, or ask an administrator.",
  google_domain: "Your Google account is not in a domain allowed to sign in to Sightline.",
  saml_request:
    "This SAML sign-in was not started here, was already used or took too long. Please try again.",
  saml_denied: "Your SAML identity provider did not sign you in.",
  saml_invalid:
    "Your SAML identity provider's answer could not be verified, so you were not signed in. Ask an administrator if this happens again.",
  saml_unavailable:
    "SAML sign-in is not set up completely or the identity provider could not be reached. Ask an administrator.",
};

export function signInErrorMessage(code: unknown): string | null {
  return typeof code === "string" && Object.hasOwn(MESSAGES, code)
    ? MESSAGES[code as SignInError]
    : null;
}

/** The login page's address showing `error`, keeping a safe `next`. */
export function loginWithError(error: SignInError, next: string): string {
  const query = new URLSearchParams({ sso_error: error });
  if (next) query.set("next", next);
  return `/login?${query.toString()}`;
}
