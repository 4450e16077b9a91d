import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../../testing/metadataStore";
import { findUserByEmail, insertGroup, insertUser, updateUser } from "../../store/users";
import { defaultGroupId } from "../../services/organizationSetup";
import { userForIdentity, type OutsideIdentity } from "./justInTime";

const verified = (email: string, extra: Partial<OutsideIdentity> = {}): OutsideIdentity => ({
  email,
  name: "",
  verifiedEmail: true,
  ...extra,
});
const options = { blockedDomains: ["blocked.example"] };

describe("just-in-time accounts", () => {
  let store: TestStore;
  let defaultGroup: number;
  const db = () => store.database.db;

  beforeAll(async () => {
    store = await openTestStore();
    defaultGroup = await defaultGroupId(db(), store.orgId);
  });
  afterAll(() => store.close());

  it("creates a new user in the default group, named as the provider says", async () => {
    const result = await userForIdentity(
      db(),
      store.orgId,
      verified("New.Person@Example.com", { name: "New Person" }),
      options,
    );
    expect(result).toMatchObject({ ok: true, created: true });
    if (!result.ok) return;
    expect(result.user).toMatchObject({
      email: "new.person@example.com",
      name: "New Person",
      password_hash: null,
      is_invitation_pending: false,
      group_ids: [defaultGroup],
    });
  });

  it("names a new user by the address when the provider gives no name", async () => {
    const result = await userForIdentity(db(), store.orgId, verified("anon@example.com"), options);
    expect(result.ok && result.user.name).toBe("anon@example.com");
  });

  it("finds the same user at the next sign-in", async () => {
    const first = await userForIdentity(db(), store.orgId, verified("again@example.com"), options);
    const second = await userForIdentity(db(), store.orgId, verified("AGAIN@example.com"), options);
    expect(second).toMatchObject({ ok: true, created: false });
    expect(first.ok && second.ok && second.user.id).toBe(first.ok && first.user.id);
  });

  it("signs an existing password user in only when the e-mail is verified", async () => {
    const owner = await insertUser(db(), {
      orgId: store.orgId,
      name: "Pat Owner",
      email: "pat@example.com",
      passwordHash: "x",
      groupIds: [defaultGroup],
      invitationPending: false,
    });
    const unverified = await userForIdentity(
      db(),
      store.orgId,
      verified("pat@example.com", { verifiedEmail: false }),
      options,
    );
    expect(unverified).toEqual({ ok: false, reason: "unverified_email" });
    const ok = await userForIdentity(db(), store.orgId, verified("pat@example.com"), options);
    expect(ok).toMatchObject({ ok: true, created: false, user: { id: owner.id } });
    // A provider that only knows the address keeps the user's name.
    expect(ok.ok && ok.user.name).toBe("Pat Owner");
    expect((await findUserByEmail(db(), store.orgId, "pat@example.com"))!.password_hash).toBe("x");
  });

  it("creates nobody for an unverified, invalid or blocked address", async () => {
    for (const [identity, reason] of [
      [verified("unverified@example.com", { verifiedEmail: false }), "unverified_email"],
      [verified("not-an-address"), "invalid_email"],
      [verified("someone@blocked.example"), "invalid_email"],
    ] as const) {
      expect(await userForIdentity(db(), store.orgId, identity, options)).toEqual({
        ok: false,
        reason,
      });
      expect(await findUserByEmail(db(), store.orgId, identity.email)).toBeNull();
    }
  });

  it("refuses a disabled user", async () => {
    const user = await insertUser(db(), {
      orgId: store.orgId,
      name: "Off",
      email: "off@example.com",
      passwordHash: null,
      groupIds: [defaultGroup],
      invitationPending: false,
    });
    await updateUser(db(), user.id, { disabled_at: new Date().toISOString() });
    expect(await userForIdentity(db(), store.orgId, verified("off@example.com"), options)).toEqual({
      ok: false,
      reason: "disabled",
    });
  });

  it("accepts a pending invitation", async () => {
    await insertUser(db(), {
      orgId: store.orgId,
      name: "Ivy",
      email: "ivy@example.com",
      passwordHash: null,
      groupIds: [defaultGroup],
      invitationPending: true,
    });
    await userForIdentity(db(), store.orgId, verified("ivy@example.com"), options);
    const stored = await findUserByEmail(db(), store.orgId, "ivy@example.com");
    expect(stored!.is_invitation_pending).toBe(false);
  });

  it("applies a group mapping on top of the default group at every sign-in", async () => {
    const analysts = await insertGroup(db(), store.orgId, "analysts", "regular", []);
    const mapGroups = async (groups: string[]) => (groups.includes("bi") ? [analysts.id] : []);
    const first = await userForIdentity(
      db(),
      store.orgId,
      verified("mapped@example.com", { groups: ["bi"] }),
      { ...options, mapGroups },
    );
    expect(first.ok && first.user.group_ids).toEqual([defaultGroup, analysts.id].sort());
    await userForIdentity(db(), store.orgId, verified("mapped@example.com", { groups: [] }), {
      ...options,
      mapGroups,
    });
    const stored = await findUserByEmail(db(), store.orgId, "mapped@example.com");
    expect(stored!.group_ids).toEqual([defaultGroup]);
  });
});
