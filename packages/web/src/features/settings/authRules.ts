// The password-login rule of the organisation settings (spec 2 §5).
import type { OrganizationSettingsValues } from "../../api/settings";

export const PASSWORD_LOGIN_DISABLED_WARNING =
  "Password based login is currently disabled and users will be able to login only with the enabled SSO options.";

export interface LoginMethods {
  googleLoginEnabled: boolean;
  ldapLoginEnabled: boolean;
  oidcLoginEnabled: boolean;
}

/** The sign-in methods the server has configured, from client_config. */
export function loginMethodsOf(config: {
  googleLoginEnabled?: boolean;
  ldapLoginEnabled?: boolean;
  oidcLoginEnabled?: boolean;
}): LoginMethods {
  return {
    googleLoginEnabled: Boolean(config.googleLoginEnabled),
    ldapLoginEnabled: Boolean(config.ldapLoginEnabled),
    oidcLoginEnabled: Boolean(config.oidcLoginEnabled),
  };
}

/**
 * Is any sign-in method besides passwords on (Google, LDAP or SAML; Sightline adds OpenID
 * Connect)? The server applies the same rule (packages/server/src/http/settings.ts).
 */
export function hasOtherLoginMethod(
  values: Pick<OrganizationSettingsValues, "auth_saml_enabled">,
  methods: LoginMethods,
): boolean {
  return (
    methods.googleLoginEnabled ||
    methods.ldapLoginEnabled ||
    methods.oidcLoginEnabled ||
    Boolean(values.auth_saml_enabled)
  );
}

/** Password login can only be off while another method is on; otherwise it is forced back on. */
export function withPasswordLoginRule(
  values: OrganizationSettingsValues,
  methods: LoginMethods,
): OrganizationSettingsValues {
  if (hasOtherLoginMethod(values, methods)) return values;
  return { ...values, auth_password_login_enabled: true };
}

export interface TestSignInLink {
  label: string;
  href: string;
}

/** "Test sign-in" for each configured method (SAML: while the saved settings have it on). */
export function testSignInLinks(methods: LoginMethods, samlSaved: boolean): TestSignInLink[] {
  const links: TestSignInLink[] = [];
  if (methods.googleLoginEnabled) links.push({ label: "Google", href: "/oauth/google?test=1" });
  if (methods.oidcLoginEnabled) links.push({ label: "OpenID Connect", href: "/oidc/login?test=1" });
  if (samlSaved) links.push({ label: "SAML", href: "/saml/login?test=1" });
  if (methods.ldapLoginEnabled) links.push({ label: "LDAP", href: "/ldap/login?test=1" });
  return links;
}
