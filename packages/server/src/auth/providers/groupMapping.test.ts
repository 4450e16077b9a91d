// Group mapping and the test sign-in's read-only decision, set through the real settings API on
// SQLite and PostgreSQL metadata.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { metadataDatabases } from "../../testing/services";
import type { TestServer } from "../../testing/testServer";
import type { TestClient } from "../../testing/httpClient";
import { startWithAdminAndMember } from "../../testing/signedIn";
import { findOrgBySlug } from "../../store/organizations";
import { findUserByEmail, updateUser, type User } from "../../store/users";
import { defaultGroupId } from "../../services/organizationSetup";
import { userForIdentity, type OutsideIdentity } from "./justInTime";
import { groupMappingFor, mappedGroupIds } from "./groupMapping";
import { renderTestResult, wouldDo } from "./testSignIn";

const DATABASES = await metadataDatabases();

describe("mappedGroupIds", () => {
  const rules = [
    { provider_group: "Engineers", group_id: 5 },
    { provider_group: "admins", group_id: 2 },
    { provider_group: "engineers", group_id: 7 },
    { provider_group: " ops ", group_id: 5 },
  ];
  it("matches names trimmed and without regard to case, each id once", () => {
    expect(mappedGroupIds(rules, ["ENGINEERS", "ops"])).toEqual([5, 7]);
    expect(mappedGroupIds(rules, ["Admins "])).toEqual([2]);
    expect(mappedGroupIds(rules, ["nobody"])).toEqual([]);
    expect(mappedGroupIds([], ["admins"])).toEqual([]);
  });
});

describe("renderTestResult", () => {
  it("escapes everything the provider sent", () => {
    const html = renderTestResult(
      "oidc",
      {
        identity: {
          email: "x@example.com",
          name: "<script>alert(1)</script>",
          verifiedEmail: false,
          groups: ['"><img src=x>'],
        },
      },
      {
        action: "sign_in",
        userId: 3,
        userName: "<b>Bob</b>",
        groups: ["<i>g</i>"],
        groupsNote: "n",
      },
    );
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>Bob");
    expect(html).not.toContain("<i>g");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Sign in the existing user #3 (&lt;b&gt;Bob&lt;/b&gt;).");
    expect(html).toContain("<dt>E-mail verified</dt><dd>No</dd>");
    const failed = renderTestResult("saml", { error: "bad <thing>" }, null);
    expect(failed).toContain("SAML sign-in failed: bad &lt;thing&gt;");
    expect(failed).toContain("<dd>Failed</dd>");
  });
});

describe.each(DATABASES)("SSO group mapping on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;
  let engineers: number;
  let analysts: number;
  let defaultGroup: number;
  const db = () => server.ctx.database.db;
  const org = async () => (await findOrgBySlug(db(), "default"))!;
  const person = (email: string, extra: Partial<OutsideIdentity> = {}): OutsideIdentity => ({
    email,
    name: "",
    verifiedEmail: true,
    ...extra,
  });
  const signIn = async (identity: OutsideIdentity): Promise<User> => {
    const o = await org();
    const result = await userForIdentity(db(), o.id, identity, {
      blockedDomains: [],
      mapGroups: groupMappingFor(server.ctx, o),
    });
    if (!result.ok) throw new Error(result.reason);
    return result.user;
  };
  const setMapping = (value: unknown) =>
    admin.post<{ settings: Record<string, unknown>; message?: string }>(
      "/api/settings/organization",
      { auth_sso_group_mapping: value },
    );

  beforeAll(async () => {
    ({ server, admin, member } = await startWithAdminAndMember(dbKind));
    engineers = (await admin.post<{ id: number }>("/api/groups", { name: "Engineers" })).body.id;
    analysts = (await admin.post<{ id: number }>("/api/groups", { name: "Analysts" })).body.id;
    defaultGroup = await defaultGroupId(db(), (await org()).id);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is off by default and leaves groups alone", async () => {
    const res = await admin.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(res.body.settings.auth_sso_group_mapping).toEqual([]);
    expect(groupMappingFor(server.ctx, await org())).toBeUndefined();
    const user = await signIn(person("off@example.com", { groups: ["engineers"] }));
    expect(user.group_ids).toEqual([defaultGroup]);
  });

  it("refuses a malformed mapping or one naming no group of the organisation", async () => {
    const before = JSON.stringify((await org()).settings);
    for (const bad of [
      "engineers",
      [{ provider_group: "x" }],
      [{ provider_group: "", group_id: engineers }],
      [{ provider_group: "   ", group_id: engineers }],
      [{ provider_group: "x", group_id: "1" }],
      [{ provider_group: "x", group_id: 1.5 }],
      [{ provider_group: "x", group_id: engineers, extra: 1 }],
      [{ provider_group: "x", group_id: 999999 }],
      [{ provider_group: "x".repeat(257), group_id: engineers }],
      [null],
    ]) {
      const res = await setMapping(bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(typeof res.body.message).toBe("string");
    }
    expect(
      (
        await member.post("/api/settings/organization", {
          auth_sso_group_mapping: [{ provider_group: "x", group_id: engineers }],
        })
      ).status,
    ).toBe(403);
    expect(JSON.stringify((await org()).settings)).toBe(before);
  });

  it("stores the rows trimmed, without repeats", async () => {
    const res = await setMapping([
      { provider_group: " engineers ", group_id: engineers },
      { provider_group: "Engineers", group_id: engineers },
      { provider_group: "data", group_id: analysts },
      { provider_group: "data", group_id: engineers },
    ]);
    expect(res.status).toBe(200);
    const expected = [
      { provider_group: "engineers", group_id: engineers },
      { provider_group: "data", group_id: analysts },
      { provider_group: "data", group_id: engineers },
    ];
    expect(res.body.settings.auth_sso_group_mapping).toEqual(expected);
    const again = await admin.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(again.body.settings.auth_sso_group_mapping).toEqual(expected);
  });

  it("gives the default group plus the mapped ones at every sign-in", async () => {
    const first = await signIn(person("jit@example.com", { groups: ["ENGINEERS", "other"] }));
    expect(first.group_ids).toEqual([defaultGroup, engineers].sort((a, b) => a - b));
    const second = await signIn(person("jit@example.com", { groups: ["data"] }));
    expect(second.group_ids).toEqual([defaultGroup, engineers, analysts].sort((a, b) => a - b));
    // Out of every mapped group: back to the default group only.
    const third = await signIn(person("jit@example.com", { groups: [] }));
    expect(third.group_ids).toEqual([defaultGroup]);
    const stored = await findUserByEmail(db(), (await org()).id, "jit@example.com");
    expect(stored!.group_ids).toEqual([defaultGroup]);
    // A provider that sends no groups leaves them alone.
    await signIn(person("jit@example.com", { groups: ["engineers"] }));
    const fourth = await signIn(person("jit@example.com"));
    expect(fourth.group_ids).toEqual([defaultGroup, engineers].sort((a, b) => a - b));
  });

  it("ignores a mapped group deleted since, with a log line", async () => {
    const doomed = (await admin.post<{ id: number }>("/api/groups", { name: "Doomed" })).body.id;
    expect(
      (
        await setMapping([
          { provider_group: "doomed", group_id: doomed },
          { provider_group: "engineers", group_id: engineers },
        ])
      ).status,
    ).toBe(200);
    expect((await admin.request("DELETE", `/api/groups/${doomed}`)).status).toBeLessThan(300);
    const warn = vi.spyOn(server.ctx.log, "warn");
    try {
      const user = await signIn(person("doomed@example.com", { groups: ["doomed", "engineers"] }));
      expect(user.group_ids).toEqual([defaultGroup, engineers].sort((a, b) => a - b));
      expect(warn).toHaveBeenCalledWith(
        { groupIds: [doomed] },
        expect.stringContaining("no longer exist"),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("tells a test sign-in what would happen, changing nothing", async () => {
    await setMapping([{ provider_group: "engineers", group_id: engineers }]);
    const o = await org();
    const fresh = await wouldDo(
      server.ctx,
      o,
      person("new@example.com", { groups: ["engineers"] }),
    );
    expect(fresh).toMatchObject({ action: "create", groups: ["default", "Engineers"] });
    expect(await findUserByEmail(db(), o.id, "new@example.com")).toBeNull();

    const known = await signIn(person("known@example.com", { groups: [] }));
    const existing = await wouldDo(
      server.ctx,
      o,
      person("Known@Example.com", { groups: ["engineers"] }),
    );
    expect(existing).toMatchObject({ action: "sign_in", userId: known.id });
    expect((await findUserByEmail(db(), o.id, "known@example.com"))!.group_ids).toEqual([
      defaultGroup,
    ]);
    expect(await wouldDo(server.ctx, o, person("known@example.com"))).toMatchObject({
      action: "sign_in",
      groups: null,
    });

    expect(
      await wouldDo(server.ctx, o, person("known@example.com", { verifiedEmail: false })),
    ).toMatchObject({ action: "refuse", refusal: expect.stringContaining("did not confirm") });
    await updateUser(db(), known.id, { disabled_at: new Date().toISOString() });
    expect(await wouldDo(server.ctx, o, person("known@example.com"))).toMatchObject({
      action: "refuse",
      refusal: expect.stringContaining("disabled"),
    });
    expect(await wouldDo(server.ctx, o, person("not-an-address"))).toMatchObject({
      action: "refuse",
    });

    await setMapping([]);
    expect(
      await wouldDo(server.ctx, await org(), person("new@example.com", { groups: ["engineers"] })),
    ).toMatchObject({ action: "create", groups: ["default"] });
  });
});
