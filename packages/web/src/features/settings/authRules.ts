// The password-login rule of the organisation settings (spec 2 §5).
import type { OrganizationSettingsValues } from "../../api/settings";

export const PASSWORD_LOGIN_DISABLED_WARNING =
  "Password based login is currently disabled and users will be able to login only with the enabled SSO options.";

export interface LoginMethods {
  googleLoginEnabled: boolean;
  ldapLoginEnabled: boolean;
}

/** Is any sign-in method besides passwords on (Google, LDAP or SAML)? */
export function hasOtherLoginMethod(
  values: Pick<OrganizationSettingsValues, "auth_saml_enabled">,
  methods: LoginMethods,
): boolean {
  return (
    methods.googleLoginEnabled || methods.ldapLoginEnabled || Boolean(values.auth_saml_enabled)
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
