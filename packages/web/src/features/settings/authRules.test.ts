import { describe, expect, it } from "vitest";
import {
  hasOtherLoginMethod,
  loginMethodsOf,
  testSignInLinks,
  withPasswordLoginRule,
} from "./authRules";

const none = { googleLoginEnabled: false, ldapLoginEnabled: false, oidcLoginEnabled: false };

describe("password login rule", () => {
  it("forces password login on when no other method is enabled", () => {
    expect(
      withPasswordLoginRule({ auth_password_login_enabled: false, auth_saml_enabled: false }, none),
    ).toEqual({ auth_password_login_enabled: true, auth_saml_enabled: false });
  });

  it("lets it be off while SAML, Google, OpenID Connect or LDAP login is on", () => {
    const saml = { auth_password_login_enabled: false, auth_saml_enabled: true };
    expect(withPasswordLoginRule(saml, none)).toEqual(saml);
    const off = { auth_password_login_enabled: false };
    expect(withPasswordLoginRule(off, { ...none, googleLoginEnabled: true })).toEqual(off);
    expect(withPasswordLoginRule(off, { ...none, ldapLoginEnabled: true })).toEqual(off);
    expect(withPasswordLoginRule(off, { ...none, oidcLoginEnabled: true })).toEqual(off);
    expect(hasOtherLoginMethod({}, none)).toBe(false);
    // Google Apps domains alone are no sign-in method.
    expect(
      withPasswordLoginRule({ ...off, auth_google_apps_domains: ["example.com"] }, none)
        .auth_password_login_enabled,
    ).toBe(true);
  });

  it("reads the methods from client_config, missing flags off", () => {
    expect(loginMethodsOf({ googleLoginEnabled: true, ldapLoginEnabled: false })).toEqual({
      ...none,
      googleLoginEnabled: true,
    });
  });
});

describe("test sign-in links", () => {
  it("offers one per configured method, SAML once saved on", () => {
    expect(testSignInLinks(none, false)).toEqual([]);
    const all = { googleLoginEnabled: true, ldapLoginEnabled: true, oidcLoginEnabled: true };
    expect(testSignInLinks(all, true).map((l) => l.href)).toEqual([
      "/oauth/google?test=1",
      "/oidc/login?test=1",
      "/saml/login?test=1",
      "/ldap/login?test=1",
    ]);
    expect(testSignInLinks({ ...none, ldapLoginEnabled: true }, false)).toEqual([
      { label: "LDAP", href: "/ldap/login?test=1" },
    ]);
  });
});
