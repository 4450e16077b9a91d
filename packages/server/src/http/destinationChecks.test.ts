// Destinations the outbound guard would refuse are refused when saved (SECURITY.md rule 12), and
// "Send test notification" answers with the delivery's outcome in words (issue 25).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpSink, type HttpSink } from "../alerts/testSupport";
import { readDestinationOptions, writeDestinationOptions } from "../destinations/options";
import {
  findDestination,
  insertDestination,
  recordDestinationFailure,
} from "../store/destinations";
import { findOrgBySlug } from "../store/organizations";
import { createShopDataSource, publishQuery, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import { userClient } from "../testing/signedIn";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const SECRET = "secret-token-9f8e7d";

describe.each(DATABASES)("destination address checks and test notifications on %s", (db) => {
  /** No range allowed: the guard's defaults. */
  let guarded: TestServer;
  let admin: TestClient;
  let owner: TestClient;
  let colleague: TestClient;
  /** 127.0.0.1 allowed, for a local receiver. */
  let open: TestServer;
  let openAdmin: TestClient;
  let sink: HttpSink;

  const countDestinations = async (server: TestServer) =>
    (await server.ctx.database.db.selectFrom("notification_destinations").select("id").execute())
      .length;

  /** A destination stored as it was before addresses were checked. */
  async function storedUnchecked(server: TestServer, name: string, url: string) {
    const database = server.ctx.database.db;
    const org = (await findOrgBySlug(database, "default"))!;
    const row = await insertDestination(database, {
      orgId: org.id,
      userId: 1,
      name,
      type: "webhook",
      encryptedOptions: writeDestinationOptions(server.ctx, { url }),
    });
    return row.id;
  }

  async function alertOf(server: TestServer, client: TestClient, adminClient: TestClient) {
    const shop = await createShopDataSource(server, adminClient, `Shop ${Date.now()}`);
    const query = await publishQuery(adminClient, shop, "People", "SELECT id FROM people");
    const res = await client.post("/api/alerts", {
      name: "Many people",
      query_id: query.id,
      options: { column: "id", op: ">", value: 1 },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  }

  beforeAll(async () => {
    ({ server: guarded, admin } = await startWithAdmin(db));
    ({ client: owner } = await userClient(guarded, "owner@example.com"));
    ({ client: colleague } = await userClient(guarded, "colleague@example.com"));
    sink = await startHttpSink();
    ({ server: open, admin: openAdmin } = await startWithAdmin(db, {
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32",
    }));
  });

  afterAll(async () => {
    await guarded?.close();
    await open?.close();
    await sink?.close();
  });

  it.each([
    ["http://127.0.0.1:9/hook", "webhook", /^url: Refusing to connect to 127\.0\.0\.1: loopback/],
    ["http://10.1.2.3/hook", "webhook", /^url: Refusing to connect to 10\.1\.2\.3: private/],
    ["http://169.254.169.254/latest", "webhook", /169\.254\.169\.254: link-local/],
    ["http://[::1]:8080/hook", "webhook", /^url: Refusing to connect to ::1: loopback/],
    ["http://[::ffff:127.0.0.1]/hook", "slack", /^Slack Webhook URL: Refusing .*loopback/],
    ["http://localhost:9/hook", "slack", /^Slack Webhook URL: localhost resolves to .*loopback/],
    ["ftp://example.com/hook", "mattermost", /Only http and https URLs are allowed \(got ftp\)/],
    ["not a url", "webhook", /^url: This is not a valid URL\.$/],
  ])(
    "refuses %s on create with a 400 that says why, and stores nothing",
    async (url, type, why) => {
      const before = await countDestinations(guarded);
      const res = await admin.post("/api/destinations", {
        name: `Hook ${url}`,
        type,
        options: { url: `${url}/${SECRET}` },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(why);
      // The path (a webhook's secret) is never repeated.
      expect(res.text).not.toContain(SECRET);
      expect(await countDestinations(guarded)).toBe(before);
    },
  );

  it("accepts a name that does not resolve now (checked again at delivery)", async () => {
    const res = await admin.post("/api/destinations", {
      name: "Not yet in DNS",
      type: "webhook",
      options: { url: `https://hooks.nowhere.invalid/${SECRET}` },
    });
    expect(res.status, res.text).toBe(200);
  });

  it("refuses an update to a refused address and keeps the stored options", async () => {
    const created = await admin.post("/api/destinations", {
      name: "Moving hook",
      type: "webhook",
      options: { url: "https://hooks.nowhere.invalid/a" },
    });
    expect(created.status).toBe(200);
    const res = await admin.post(`/api/destinations/${created.body.id}`, {
      name: "Moving hook",
      type: "webhook",
      options: { url: "http://192.168.1.20/b" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/192\.168\.1\.20: private addresses are not allowed/);
    const row = (await findDestination(guarded.ctx.database.db, 1, created.body.id))!;
    expect(readDestinationOptions(guarded.ctx, row)).toEqual({
      url: "https://hooks.nowhere.invalid/a",
    });
  });

  it("checks a stored address again when it is saved unchanged (masked)", async () => {
    const id = await storedUnchecked(guarded, "Old local hook", `http://127.0.0.1:9/${SECRET}`);
    const res = await admin.post(`/api/destinations/${id}`, {
      name: "Renamed local hook",
      type: "webhook",
      options: { url: "--------" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/loopback addresses are not allowed/);
    expect(res.text).not.toContain(SECRET);
  });

  it("honours the ranges an admin allowed", async () => {
    const allowed = await openAdmin.post("/api/destinations", {
      name: "Local receiver",
      type: "webhook",
      options: { url: `${sink.url}/${SECRET}` },
    });
    expect(allowed.status, allowed.text).toBe(200);
    const other = await openAdmin.post("/api/destinations", {
      name: "Other loopback",
      type: "webhook",
      options: { url: "http://127.0.0.2/hook" },
    });
    expect(other.status).toBe(400);
  });

  describe("Send test notification", () => {
    it("tells a refused delivery's reason in words, without the secret", async () => {
      const id = await storedUnchecked(guarded, "Loopback hook", `http://127.0.0.1:9/${SECRET}`);
      const res = await admin.post(`/api/destinations/${id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: false,
        message:
          "The test notification to Loopback hook failed: Refusing to connect to 127.0.0.1: loopback addresses are not allowed",
      });
      expect(res.text).not.toContain(SECRET);
    });

    it("is for admins, on destinations of their organisation", async () => {
      const id = await storedUnchecked(guarded, "Admins only", "https://hooks.nowhere.invalid/x");
      expect((await owner.post(`/api/destinations/${id}/test`)).status).toBe(403);
      expect((await admin.post("/api/destinations/999999/test")).status).toBe(404);
    });

    it("delivers to an allowed receiver and says so; an answer other than 2xx is the reason", async () => {
      const created = await openAdmin.post("/api/destinations", {
        name: "Receiver",
        type: "webhook",
        options: { url: `${sink.url}/test/${SECRET}` },
      });
      sink.answer = () => 200;
      const sent = await openAdmin.post(`/api/destinations/${created.body.id}/test`);
      expect(sent.body).toEqual({
        ok: true,
        message: "The test notification was sent to Receiver.",
      });
      const request = sink.requests.find((r) => r.path === `/test/${SECRET}`)!;
      expect(JSON.parse(request.body)).toMatchObject({
        event: "alert_state_change",
        alert: { name: "[Test] Sightline", state: "triggered" },
        metadata: { test: true },
      });

      sink.answer = () => 503;
      const failed = await openAdmin.post(`/api/destinations/${created.body.id}/test`);
      expect(failed.body).toEqual({
        ok: false,
        message: expect.stringMatching(
          /^The test notification to Receiver failed: 127\.0\.0\.1:\d+ answered HTTP 503\.$/,
        ),
      });
      sink.answer = () => 200;
    });

    it("from an alert's page: its owner or an admin, to one of its subscriptions", async () => {
      const alertId = await alertOf(guarded, owner, admin);
      const hookId = await storedUnchecked(guarded, "Alert hook", `http://10.0.0.7/${SECRET}`);
      const sub = await owner.post(`/api/alerts/${alertId}/subscriptions`, {
        alert_id: alertId,
        destination_id: hookId,
      });
      expect(sub.status).toBe(200);
      const path = `/api/alerts/${alertId}/subscriptions/${sub.body.id}/test`;
      for (const client of [owner, admin]) {
        const res = await client.post(path);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ok: false,
          message:
            "The test notification to Alert hook failed: Refusing to connect to 10.0.0.7: private addresses are not allowed",
        });
      }
      expect((await colleague.post(path)).status).toBe(403);
      const otherAlert = await alertOf(guarded, owner, admin);
      expect(
        (await owner.post(`/api/alerts/${otherAlert}/subscriptions/${sub.body.id}/test`)).status,
      ).toBe(404);
    });

    it("names the alert in what it sends", async () => {
      const { client: openOwner } = await userClient(open, "owner@example.com");
      const alertId = await alertOf(open, openOwner, openAdmin);
      const hook = await openAdmin.post("/api/destinations", {
        name: "Alert receiver",
        type: "webhook",
        options: { url: `${sink.url}/alert-test` },
      });
      const sub = await openOwner.post(`/api/alerts/${alertId}/subscriptions`, {
        alert_id: alertId,
        destination_id: hook.body.id,
      });
      const res = await openOwner.post(`/api/alerts/${alertId}/subscriptions/${sub.body.id}/test`);
      expect(res.body).toEqual({
        ok: true,
        message: "The test notification was sent to Alert receiver.",
      });
      const request = sink.requests.find((r) => r.path === "/alert-test")!;
      expect(JSON.parse(request.body)).toMatchObject({
        alert: { id: alertId, name: "[Test] Many people" },
        metadata: { test: true },
      });
    });
  });

  it("shows a destination's last failure on the alerts that use it (why: owner and admins)", async () => {
    const alertId = await alertOf(guarded, owner, admin);
    const hookId = await storedUnchecked(guarded, "Failing hook", "https://hooks.nowhere.invalid/");
    await owner.post(`/api/alerts/${alertId}/subscriptions`, {
      alert_id: alertId,
      destination_id: hookId,
    });
    const at = "2024-05-01T10:20:30.000Z";
    await recordDestinationFailure(guarded.ctx.database.db, hookId, "It answered HTTP 500.", at);
    // The colleague may see the alert (same group) but not the reason.
    const seen = async (client: TestClient) => {
      const res = await client.get(`/api/alerts/${alertId}/subscriptions`);
      expect(res.status).toBe(200);
      return (res.body as any[]).find((s) => s.destination?.id === hookId).destination;
    };
    for (const client of [owner, admin]) {
      expect(await seen(client)).toMatchObject({
        last_failure: "It answered HTTP 500.",
        last_failure_at: expect.stringMatching(/^2024-05-01T10:20:30/),
      });
    }
    const forColleague = await seen(colleague);
    expect(forColleague.last_failure_at).toMatch(/^2024-05-01T10:20:30/);
    expect(forColleague).not.toHaveProperty("last_failure");
  });
});
