import { describe, expect, it } from "vitest";
import { hasOtherLoginMethod, withPasswordLoginRule } from "./authRules";

const none = { googleLoginEnabled: false, ldapLoginEnabled: false };

describe("password login rule", () => {
  it("forces password login on when no other method is enabled", () => {
    expect(
      withPasswordLoginRule({ auth_password_login_enabled: false, auth_saml_enabled: false }, none),
    ).toEqual({ auth_password_login_enabled: true, auth_saml_enabled: false });
  });

  it("lets it be off while SAML, Google or LDAP login is on", () => {
    const saml = { auth_password_login_enabled: false, auth_saml_enabled: true };
    expect(withPasswordLoginRule(saml, none)).toEqual(saml);
    const off = { auth_password_login_enabled: false };
    expect(withPasswordLoginRule(off, { ...none, googleLoginEnabled: true })).toEqual(off);
    expect(withPasswordLoginRule(off, { ...none, ldapLoginEnabled: true })).toEqual(off);
    expect(hasOtherLoginMethod({}, none)).toBe(false);
  });
});
