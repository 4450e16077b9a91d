import { describe, expect, it } from "vitest";
import type { Organization } from "../../store/organizations";
import type { OidcMethod } from "./oidcClient";
import { allowedByDomains, identityFromClaims } from "./oidcIdentity";

const method = (name: "oidc" | "google", groupsClaim: string | null = null): OidcMethod => ({
  name,
  issuer: "https://id.example",
  clientId: "c",
  clientSecret: "s",
  scopes: ["openid"],
  displayName: "X",
  loginPath: "/x",
  callbackPath: "/x/cb",
  groupsClaim,
});
const org = (domains: string[]): Organization => ({
  id: 1,
  name: "Acme",
  slug: "default",
  settings: { google_apps_domains: domains },
  created_at: "",
  updated_at: "",
});

describe("identity from OpenID Connect claims", () => {
  it("reads the address, its verification, the name and the groups", () => {
    expect(
      identityFromClaims(method("oidc", "groups"), {
        email: " Ada@Example.com ",
        email_verified: true,
        name: "Ada",
        groups: ["a", 3, "b"],
      }),
    ).toEqual({ email: "Ada@Example.com", name: "Ada", verifiedEmail: true, groups: ["a", "b"] });
  });

  it('counts only true or "true" as verified', () => {
    for (const [value, verified] of [
      [true, true],
      ["true", true],
      [false, false],
      ["false", false],
      [1, false],
      [undefined, false],
    ] as const) {
      expect(
        identityFromClaims(method("oidc"), { email: "a@b.c", email_verified: value }),
      ).toMatchObject({ verifiedEmail: verified });
    }
  });

  it("reaches nested group claims by a dotted path, and takes a single group as a list", () => {
    const nested = { realm_access: { roles: ["admin", "viewer"] } };
    expect(identityFromClaims(method("oidc", "realm_access.roles"), nested).groups).toEqual([
      "admin",
      "viewer",
    ]);
    expect(identityFromClaims(method("oidc", "group"), { group: "ops" }).groups).toEqual(["ops"]);
    // No claim: no groups, so group mapping leaves the user's groups alone.
    expect(identityFromClaims(method("oidc", "groups"), {}).groups).toBeUndefined();
    expect(identityFromClaims(method("oidc"), { groups: ["a"] }).groups).toBeUndefined();
  });
});

describe("Google Apps domains", () => {
  const claims = (email: string, hd?: string) => ({ email, ...(hd ? { hd } : {}) });

  it("lets anyone in while no domain is listed, and never restricts the generic method", () => {
    expect(allowedByDomains(method("google"), org([]), claims("x@gmail.com"))).toBe(true);
    expect(allowedByDomains(method("oidc"), org(["example.com"]), claims("x@gmail.com"))).toBe(
      true,
    );
  });

  it("needs both the hosted domain and the address's domain listed", () => {
    const acme = org(["Example.com", "example.org"]);
    const google = method("google");
    expect(allowedByDomains(google, acme, claims("A@EXAMPLE.COM", "example.com"))).toBe(true);
    expect(allowedByDomains(google, acme, claims("a@example.org", "example.com"))).toBe(true);
    expect(allowedByDomains(google, acme, claims("a@example.com"))).toBe(false);
    expect(allowedByDomains(google, acme, claims("a@gmail.com", "example.com"))).toBe(false);
    expect(allowedByDomains(google, acme, claims("a@example.com", "evil.example"))).toBe(false);
    expect(allowedByDomains(google, acme, claims("a@sub.example.com", "example.com"))).toBe(false);
    expect(allowedByDomains(google, acme, { hd: "example.com" })).toBe(false);
  });
});
