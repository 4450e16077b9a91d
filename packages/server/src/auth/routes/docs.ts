// The OpenAPI documentation of the sign-in pages and flows (the shapes are in ../../http/schemas).
import * as S from "../../http/schemas";

const tags = ["session"];
const form = (properties: Record<string, object>) => ({
  ...S.object(properties),
  description: "A form; `csrf_token` unless the X-CSRF-Token header is sent",
});
const formBody = { consumes: ["application/x-www-form-urlencoded"] };
const tokenParams = S.params({ token: S.str });
const nextQuerystring = S.object({ next: { ...S.str, description: "Where to go after login" } });
const rateLimited = S.errors(429);

export const docs = {
  ping: {
    tags,
    summary: "Liveness check (refreshes the CSRF cookie)",
    response: { 200: S.plainText("PONG.") },
  },
  setupPage: {
    tags,
    summary: "First-run setup page",
    response: { 200: S.htmlPage("The setup form"), 302: S.redirect("To / once set up") },
  },
  setup: {
    tags,
    summary: "Create the organisation and its first admin",
    ...formBody,
    body: form({ name: S.str, email: S.str, password: S.str, org_name: S.str }),
    response: {
      200: S.htmlPage("The form with the problems"),
      302: S.redirect("To /, signed in"),
      ...S.errors(400),
    },
  },
  loginPage: {
    tags,
    summary: "Login page",
    querystring: S.object({
      next: { ...S.str, description: "Where to go after login" },
      sso_error: {
        ...S.str,
        description: "Why another sign-in method refused (shown as a message)",
      },
    }),
    response: {
      200: S.htmlPage("The login form"),
      302: S.redirect("To setup, or to `next` when signed in"),
      ...rateLimited,
    },
  },
  login: {
    tags,
    summary: "Sign in with email and password",
    querystring: nextQuerystring,
    ...formBody,
    body: form({
      email: S.str,
      password: S.str,
      remember: { ...S.str, description: "Any value = on" },
    }),
    response: {
      200: S.htmlPage("The form with the problem"),
      302: S.redirect("To `next`, signed in"),
      ...S.errors(400, 429),
    },
  },
  remoteUserLogin: {
    tags,
    summary:
      "Sign in as the user a trusted reverse proxy names (SIGHTLINE_REMOTE_USER_LOGIN_ENABLED)",
    querystring: nextQuerystring,
    response: {
      302: S.redirect("To `next`, signed in; or to the login page with the reason"),
      ...S.errors(404),
    },
  },
  logout: {
    tags,
    summary: "Sign out",
    response: { 302: S.redirect("To the login page") },
  },
  tokenPage: (summary: string) => ({
    tags,
    summary,
    params: tokenParams,
    response: { 200: S.htmlPage("The password form"), 400: S.htmlPage("The link is not valid") },
  }),
  setPassword: (summary: string) => ({
    tags,
    summary,
    params: tokenParams,
    ...formBody,
    body: form({ password: { ...S.str, description: "At least 6 characters" } }),
    response: {
      302: S.redirect("To /, signed in"),
      400: {
        ...S.htmlPage("The link is not valid, or the password is refused"),
        // A missing CSRF token is answered in JSON, like everywhere.
        content: {
          "text/html": { schema: S.str },
          "application/json": { schema: S.errorMessage },
        },
      },
    },
  }),
  verify: {
    tags,
    summary: "Confirm an email address",
    params: tokenParams,
    response: { 200: S.htmlPage("Verified"), 400: S.htmlPage("The link is not valid") },
  },
  verificationEmail: {
    tags,
    summary: "Send the signed-in user a verification email",
    response: {
      200: S.object({ message: S.str }, ["message"], "Check your inbox"),
      ...S.errors(400, 404),
    },
  },
  forgotPage: {
    tags,
    summary: "Forgot-password page",
    response: {
      200: S.htmlPage("The form"),
      404: S.htmlPage("Password login is off"),
      ...rateLimited,
    },
  },
  forgot: {
    tags,
    summary: "Send a password reset email",
    ...formBody,
    body: form({ email: S.str }),
    response: {
      200: S.htmlPage("Sent, if the address is known"),
      404: S.htmlPage("Password login is off"),
      ...S.errors(400, 429),
    },
  },
};
