import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import type { TestClient } from "../testing/httpClient";
import {
  createShopAndSecret,
  publishQuery,
  startWithAdmin,
  linkGroup,
  newGroup,
  otherOrgObjects,
} from "../testing/apiServer";
import { flushEvents } from "../services/events";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

const OPTIONS = { column: "id", op: ">", value: 1, selector: "first", muted: false };

describe.each(DATABASES)("alerts API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let owner: TestClient;
  let ownerId: number;
  let colleague: TestClient;
  let colleagueId: number;
  /** In a group with no data source. */
  let outsider: TestClient;
  /** In a group without list_alerts, linked to Shop. */
  let reader: TestClient;
  let shopQuery: number;
  let shopId: number;
  let secretQuery: number;
  let other: Awaited<ReturnType<typeof otherOrgObjects>>;

  /** Expects a 4xx `{message}` answer. */
  const refused = (res: { status: number; body: any }, status: number) => {
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe("string");
  };

  const newQuery = async (dataSourceId: number, text: string) =>
    (await publishQuery(admin, dataSourceId, `Query: ${text}`, text)).id;

  const newAlert = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.post("/api/alerts", {
      name: "Many people",
      query_id: shopQuery,
      options: OPTIONS,
      ...body,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  const alertRow = async (id: number) =>
    server.ctx.database.db.selectFrom("alerts").selectAll().where("id", "=", id).executeTakeFirst();

  const events = async (action: string) => {
    await flushEvents(server.ctx.database.db);
    return server.ctx.database.db
      .selectFrom("events")
      .selectAll()
      .where("object_type", "=", "alert")
      .where("action", "=", action)
      .execute();
  };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    ({ client: owner, id: ownerId } = await userClient(server, "owner@example.com"));
    ({ client: colleague, id: colleagueId } = await userClient(server, "colleague@example.com"));
    const { shop, secret } = await createShopAndSecret(server, admin);
    const nobody = await newGroup(server, "nobody");
    ({ client: outsider } = await userClient(server, "outsider@example.com", [nobody.id]));
    const readers = await newGroup(server, "readers", ["view_query"]);
    await linkGroup(server, shop, readers.id, true);
    ({ client: reader } = await userClient(server, "reader@example.com", [readers.id]));
    shopId = shop;
    shopQuery = await newQuery(shop, "SELECT id, name FROM people ORDER BY id");
    secretQuery = await newQuery(secret, "SELECT 42 AS answer");
    other = await otherOrgObjects(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe("create", () => {
    it("creates an unknown alert owned by the caller, with the full shapes and rearm", async () => {
      const alert = await newAlert(owner, { rearm: 100, destination_id: 5 });
      expect(alert).toMatchObject({
        name: "Many people",
        options: OPTIONS,
        state: "unknown",
        last_triggered_at: null,
        rearm: 100,
        query: { id: shopQuery, query: "SELECT id, name FROM people ORDER BY id" },
        user: { id: ownerId, email: "owner@example.com" },
      });
      expect(Object.keys(alert).sort()).toEqual(
        [
          "id",
          "name",
          "options",
          "state",
          "last_triggered_at",
          "updated_at",
          "created_at",
          "rearm",
          "query",
          "user",
        ].sort(),
      );
      expect(alert.query.user.email).toBe("admin@example.com");
      // The selector is kept as sent, and read back.
      for (const selector of ["first", "min", "max"]) {
        const withSelector = await newAlert(owner, { options: { ...OPTIONS, selector } });
        expect(withSelector.options.selector).toBe(selector);
        expect((await owner.get(`/api/alerts/${withSelector.id}`)).body.options.selector).toBe(
          selector,
        );
      }
      expect(alert.user).not.toHaveProperty("api_key");
      expect(await events("create")).toEqual(
        expect.arrayContaining([expect.objectContaining({ object_id: String(alert.id) })]),
      );
    });

    it("refuses an alert on a query the caller cannot see (403)", async () => {
      refused(
        await outsider.post("/api/alerts", { name: "x", query_id: shopQuery, options: OPTIONS }),
        403,
      );
      refused(
        await owner.post("/api/alerts", { name: "x", query_id: secretQuery, options: OPTIONS }),
        403,
      );
    });

    it("answers bad input with 400 and creates nothing", async () => {
      const before = await server.ctx.database.db
        .selectFrom("alerts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      const base = { name: "x", query_id: shopQuery, options: OPTIONS };
      const bad: unknown[] = [
        { ...base, name: undefined },
        { ...base, name: "  " },
        { ...base, name: 5 },
        { ...base, name: "n".repeat(256) },
        { ...base, query_id: undefined },
        { ...base, query_id: "abc" },
        { ...base, query_id: 999999 },
        { ...base, query_id: other.query.id },
        { ...base, options: undefined },
        { ...base, options: [1] },
        { ...base, options: "x" },
        { ...base, options: { ...OPTIONS, custom_body: "{{#QUERY_RESULT_ROWS}} unclosed" } },
        { ...base, options: { ...OPTIONS, custom_subject: "{{/nothing}}" } },
        { ...base, options: { ...OPTIONS, selector: "last" } },
        { ...base, options: { ...OPTIONS, selector: 1 } },
        { ...base, rearm: -1 },
        { ...base, rearm: 1.5 },
        { ...base, rearm: "soon" },
        [base],
      ];
      for (const body of bad) refused(await owner.post("/api/alerts", body), 400);
      refused(await owner.request("POST", "/api/alerts", { raw: "{not json" }), 400);
      const after = await server.ctx.database.db
        .selectFrom("alerts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });

  describe("read", () => {
    it("gets an alert with view access; 403 without; 404 for other orgs and bad ids", async () => {
      const alert = await newAlert(owner);
      const res = await colleague.get(`/api/alerts/${alert.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(alert);
      refused(await outsider.get(`/api/alerts/${alert.id}`), 403);
      refused(await owner.get("/api/alerts/999999"), 404);
      refused(await owner.get("/api/alerts/abc"), 404);
      const foreign = await server.ctx.database.db
        .insertInto("alerts")
        .values({
          org_id: other.org.id,
          name: "Foreign",
          query_id: other.query.id,
          user_id: other.user.id,
          options: "{}",
          state: "unknown",
          created_at: alert.created_at,
          updated_at: alert.created_at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      refused(await admin.get(`/api/alerts/${foreign.id}`), 404);
      refused(await admin.post(`/api/alerts/${foreign.id}`, { name: "mine" }), 404);
      refused(await admin.delete(`/api/alerts/${foreign.id}`), 404);
      expect((await alertRow(foreign.id))?.name).toBe("Foreign");
    });

    it("lists the alerts on data sources of the caller's groups, each once", async () => {
      const shopAlert = await newAlert(owner, { name: "Shop alert" });
      const secretAlert = await newAlert(admin, { name: "Secret alert", query_id: secretQuery });
      const mine = await owner.get("/api/alerts");
      expect(mine.status).toBe(200);
      const ids = mine.body.map((a: { id: number }) => a.id);
      expect(ids).toContain(shopAlert.id);
      expect(ids).not.toContain(secretAlert.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(mine.body.find((a: { id: number }) => a.id === shopAlert.id)).toEqual(shopAlert);
      // Admins get no bypass: the admin is in the default group only, linked to Shop.
      const all = (await admin.get("/api/alerts")).body.map((a: { id: number }) => a.id);
      expect(all).toContain(shopAlert.id);
      expect(all).not.toContain(secretAlert.id);
      expect((await outsider.get("/api/alerts")).body).toEqual([]);
      refused(await reader.get("/api/alerts"), 403);
    });
  });

  describe("change", () => {
    it("the owner and admins edit; others get 403 with Redash's message", async () => {
      const alert = await newAlert(owner);
      const renamed = await owner.post(`/api/alerts/${alert.id}`, {
        name: " Renamed ",
        options: { column: "name", op: "==", value: "Ann" },
        rearm: 60,
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        name: "Renamed",
        options: { column: "name", op: "==", value: "Ann" },
        rearm: 60,
      });
      const denied = await colleague.post(`/api/alerts/${alert.id}`, { name: "Stolen" });
      refused(denied, 403);
      expect(denied.body.message).toBe("You don't have permission to edit this resource.");
      const byAdmin = await admin.post(`/api/alerts/${alert.id}`, { rearm: null });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ name: "Renamed", rearm: null });
      for (const body of [{ name: "" }, { options: 3 }, { rearm: -5 }, { query_id: 999999 }]) {
        refused(await owner.post(`/api/alerts/${alert.id}`, body), 400);
      }
      expect((await alertRow(alert.id))?.name).toBe("Renamed");
      expect((await events("edit")).length).toBeGreaterThanOrEqual(2);
    });

    it("refuses re-pointing an alert at a query the caller cannot see (403), changing nothing", async () => {
      const alert = await newAlert(owner, { rearm: 30 });
      const denied = await owner.post(`/api/alerts/${alert.id}`, {
        name: "Moved",
        query_id: secretQuery,
      });
      refused(denied, 403);
      expect(JSON.stringify(denied.body)).not.toContain("SELECT 42");
      expect(await alertRow(alert.id)).toMatchObject({
        name: "Many people",
        query_id: shopQuery,
        rearm: 30,
      });
      const got = await owner.get(`/api/alerts/${alert.id}`);
      expect(got.body.query.id).toBe(shopQuery);
      // The owner may re-point it at another query they can see, and an admin anywhere.
      const second = await newQuery(shopId, "SELECT id FROM people");
      expect((await owner.post(`/api/alerts/${alert.id}`, { query_id: second })).status).toBe(200);
      expect((await alertRow(alert.id))?.query_id).toBe(second);
      const byAdmin = await admin.post(`/api/alerts/${alert.id}`, { query_id: secretQuery });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.query.id).toBe(secretQuery);
    });

    it("mutes and unmutes (owner or admin)", async () => {
      const alert = await newAlert(owner);
      const mute = await owner.post(`/api/alerts/${alert.id}/mute`);
      expect(mute.status).toBe(200);
      expect(mute.body).toBeNull();
      expect((await owner.get(`/api/alerts/${alert.id}`)).body.options).toEqual({
        ...OPTIONS,
        muted: true,
      });
      refused(await colleague.delete(`/api/alerts/${alert.id}/mute`), 403);
      expect((await admin.delete(`/api/alerts/${alert.id}/mute`)).status).toBe(200);
      expect((await owner.get(`/api/alerts/${alert.id}`)).body.options.muted).toBe(false);
      expect((await events("mute")).length).toBeGreaterThan(0);
      expect((await events("unmute")).length).toBeGreaterThan(0);
    });

    it("options saved without the muted flag keep it (muted in another tab meanwhile)", async () => {
      const alert = await newAlert(owner);
      expect((await owner.post(`/api/alerts/${alert.id}/mute`)).status).toBe(200);
      const { muted: _muted, ...edited } = { ...OPTIONS, value: 5 };
      const saved = await owner.post(`/api/alerts/${alert.id}`, { options: edited });
      expect(saved.status).toBe(200);
      expect(saved.body.options).toEqual({ ...edited, muted: true });
      // Sent explicitly, it is stored as sent (Redash clients send the whole options).
      const unmuted = await owner.post(`/api/alerts/${alert.id}`, {
        options: { ...edited, muted: false },
      });
      expect(unmuted.body.options.muted).toBe(false);
    });

    it("deletes an alert with its subscriptions: others 403, owner and admin 200", async () => {
      const alert = await newAlert(owner);
      await owner.post(`/api/alerts/${alert.id}/subscriptions`, {});
      refused(await colleague.delete(`/api/alerts/${alert.id}`), 403);
      const res = await owner.delete(`/api/alerts/${alert.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toBeNull();
      expect(await alertRow(alert.id)).toBeUndefined();
      const left = await server.ctx.database.db
        .selectFrom("alert_subscriptions")
        .selectAll()
        .where("alert_id", "=", alert.id)
        .execute();
      expect(left).toEqual([]);
      const second = await newAlert(owner);
      expect((await admin.delete(`/api/alerts/${second.id}`)).status).toBe(200);
      refused(await admin.delete(`/api/alerts/${second.id}`), 404);
    });
  });

  describe("subscriptions", () => {
    it("subscribes with view access, by e-mail or through a destination of the org", async () => {
      const alert = await newAlert(owner);
      const destination = await admin.post("/api/destinations", {
        name: `Hook ${alert.id}`,
        type: "webhook",
        options: { url: "https://example.com/hook-secret" },
      });
      expect(destination.status).toBe(200);
      const mail = await colleague.post(`/api/alerts/${alert.id}/subscriptions`, {
        alert_id: alert.id,
      });
      expect(mail.status).toBe(200);
      expect(mail.body).toMatchObject({ alert_id: alert.id, user: { id: colleagueId } });
      expect(mail.body).not.toHaveProperty("destination");
      const hook = await owner.post(`/api/alerts/${alert.id}/subscriptions`, {
        alert_id: alert.id,
        destination_id: destination.body.id,
      });
      expect(hook.status).toBe(200);
      expect(hook.body.destination).toEqual({
        id: destination.body.id,
        name: `Hook ${alert.id}`,
        type: "webhook",
        icon: "fa-bolt",
        // No delivery has failed (the reason is for the alert's owner and admins).
        last_failure_at: null,
        last_failure: null,
      });
      expect(JSON.stringify(hook.body)).not.toContain("hook-secret");

      const list = await owner.get(`/api/alerts/${alert.id}/subscriptions`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([mail.body, hook.body]);
      refused(await outsider.get(`/api/alerts/${alert.id}/subscriptions`), 403);
      refused(await outsider.post(`/api/alerts/${alert.id}/subscriptions`, {}), 403);
      refused(await owner.get("/api/alerts/999999/subscriptions"), 404);

      // Duplicates, unknown and other organisations' destinations, bad ids: 400.
      refused(await colleague.post(`/api/alerts/${alert.id}/subscriptions`, {}), 400);
      refused(
        await colleague.post(`/api/alerts/${alert.id}/subscriptions`, {
          destination_id: destination.body.id,
        }),
        400,
      );
      refused(
        await owner.post(`/api/alerts/${alert.id}/subscriptions`, { destination_id: 999999 }),
        400,
      );
      refused(
        await owner.post(`/api/alerts/${alert.id}/subscriptions`, { destination_id: "x" }),
        400,
      );
      expect((await owner.get(`/api/alerts/${alert.id}/subscriptions`)).body).toHaveLength(2);
      expect((await events("subscribe")).length).toBeGreaterThanOrEqual(2);
    });

    it("unsubscribes: the subscriber and admins; others 403; unknown 404", async () => {
      const alert = await newAlert(owner);
      const mine = (await colleague.post(`/api/alerts/${alert.id}/subscriptions`, {})).body;
      const owners = (await owner.post(`/api/alerts/${alert.id}/subscriptions`, {})).body;
      refused(await owner.delete(`/api/alerts/${alert.id}/subscriptions/${mine.id}`), 403);
      const own = await colleague.delete(`/api/alerts/${alert.id}/subscriptions/${mine.id}`);
      expect(own.status).toBe(200);
      expect(own.body).toBeNull();
      expect(
        (await admin.delete(`/api/alerts/${alert.id}/subscriptions/${owners.id}`)).status,
      ).toBe(200);
      refused(await admin.delete(`/api/alerts/${alert.id}/subscriptions/${owners.id}`), 404);
      refused(await admin.delete(`/api/alerts/${alert.id}/subscriptions/abc`), 404);
      expect((await owner.get(`/api/alerts/${alert.id}/subscriptions`)).body).toEqual([]);
      expect((await events("unsubscribe")).length).toBeGreaterThanOrEqual(2);
    });
  });

  describe("eval", () => {
    it("evaluates against the latest result and stores the state (owner or admin)", async () => {
      const alert = await newAlert(owner);
      // No result yet: unknown stays unknown, nothing stored.
      expect((await owner.post(`/api/alerts/${alert.id}/eval`)).status).toBe(200);
      expect((await alertRow(alert.id))?.state).toBe("unknown");
      const run = await owner.post(`/api/queries/${shopQuery}/results`, { max_age: 0 });
      expect(run.status).toBe(200);
      await expect
        .poll(
          async () => (await owner.get(`/api/queries/${shopQuery}`)).body.latest_query_data_id,
          {
            timeout: 15_000,
          },
        )
        .not.toBeNull();
      refused(await colleague.post(`/api/alerts/${alert.id}/eval`), 403);
      const res = await owner.post(`/api/alerts/${alert.id}/eval`);
      expect(res.status).toBe(200);
      expect(res.body).toBeNull();
      // First row id 1 > 1 is false: ok.
      const row = await alertRow(alert.id);
      expect(row?.state).toBe("ok");
      // Only a trigger sets "last triggered".
      expect(row?.last_triggered_at).toBeNull();
      await admin.post(`/api/alerts/${alert.id}`, { options: { ...OPTIONS, selector: "max" } });
      expect((await admin.post(`/api/alerts/${alert.id}/eval`)).status).toBe(200);
      expect((await alertRow(alert.id))?.state).toBe("triggered");
      expect((await alertRow(alert.id))?.last_triggered_at).not.toBeNull();
      expect((await events("evaluate")).length).toBeGreaterThanOrEqual(2);
    });
  });
});
