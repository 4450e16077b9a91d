/**
 * Why a sign-in through an outside provider was refused, carried to the login page as
 * `/login?sso_error=<code>`: the page shows the fixed text of a known code and nothing for any
 * other value, so the address cannot put words of its own on the page.
 */
import type { RefusalReason } from "./justInTime";

export type SignInError = RefusalReason | "remote_user_missing" | "remote_user_untrusted";

const MESSAGES: Record<SignInError, string> = {
  invalid_email: "Your sign-in did not give a valid e-mail address that may use Sightline.",
  unverified_email: "Your sign-in provider did not confirm your e-mail address.",
  disabled: "Your account is disabled. Ask an administrator to enable it.",
  remote_user_missing:
    "The reverse proxy did not say who you are. Sign in through the proxy, or ask an administrator.",
  remote_user_untrusted:
    "Sign-in by reverse proxy is only accepted from the proxy itself. Ask an administrator.",
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
