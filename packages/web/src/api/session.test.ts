import { describe, expect, it } from "vitest";
import { isAuthenticated, loginUrl } from "./session";
import { loginPopupUrl } from "./sessionExpiry";
import type { Session } from "./types";

describe("session", () => {
  it("is authenticated when the user has an id", () => {
    const base = {
      client_config: {} as Session["client_config"],
      messages: [],
      org_slug: "default",
    };
    const user = { id: 1, name: "A", email: "a@example.com", profile_image_url: "", groups: [] };
    expect(isAuthenticated({ ...base, user: { ...user, permissions: [] } })).toBe(true);
    expect(isAuthenticated({ ...base, user: { permissions: [], apiKey: "k" } })).toBe(false);
  });

  it("sends visitors to login with the full current address as next", () => {
    expect(loginUrl({ pathname: "/queries/3", search: "?p_x=1", hash: "#table" })).toBe(
      "/login?next=%2Fqueries%2F3%3Fp_x%3D1%23table",
    );
    expect(loginPopupUrl()).toBe("/login?next=%2Fsession-restored");
  });
});
