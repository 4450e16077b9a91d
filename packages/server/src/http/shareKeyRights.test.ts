// A share key never opens more than its dashboard's owner may view now (SECURITY.md rules 4-6):
// forks copy only what the forker sees, a widget someone else added on a data source the owner
// cannot use stays shut, an owner removed from a group or disabled takes the key's reach with
// them, an archived dashboard is no longer public; results read with API keys are Redash's
// reduced form; sharing refuses text-parameter queries; a dashboard holds a bounded number of
// widgets (api-platform.md §6.6, §7.5; api-queries.md §2A.5).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOrgBySlug } from "../store/organizations";
import { defaultGroupId } from "../services/organizationSetup";
import { toJson, now } from "../store/values";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { ownApiKey, TestClient, type Response } from "../testing/httpClient";
import { createShopAndSecret, startWithAdmin } from "../testing/apiServer";
import { userClient } from "../testing/signedIn";
import { MAX_WIDGETS_PER_DASHBOARD, TOO_MANY_WIDGETS_MESSAGE } from "./dashboards/widgetLimit";
import { UNSAFE_SHARE_MESSAGE } from "./dashboards/shareRoutes";

const DATABASES = await metadataDatabases();

const SECRET_TEXT = "SELECT value FROM people -- the secret rows";
const SHOP_TEXT = "SELECT id, name FROM people -- the shop rows";

interface Saved {
  id: number;
  api_key: string;
  vizId: number;
}

/** An anonymous client whose every call carries the key, as the public page sends it. */
function withKey(server: TestServer, key: string): TestClient {
  const client = new TestClient(server.url);
  client.apiKey = key;
  return client;
}

function refused(res: Response<any>, ...statuses: number[]) {
  expect(statuses, `${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
  expect(res.text).not.toContain("John Doe");
}

describe.each(DATABASES)("share keys act with their owner's current rights on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let shop: number;
  let secret: number;
  let keepersGroup: number;
  let defaultGroup: number;
  let keeper: { client: TestClient; id: number };
  let outsider: { client: TestClient; id: number };
  let shopQ: Saved;
  let secretQ: Saved;
  let secretResult: number;

  const save = async (client: TestClient, dataSourceId: number, text: string, options = {}) => {
    const res = await client.post("/api/queries", {
      name: text.slice(0, 40),
      query: text,
      data_source_id: dataSourceId,
      options,
    });
    expect(res.status, res.text).toBe(200);
    await client.post(`/api/queries/${res.body.id}`, { is_draft: false });
    return { id: res.body.id, api_key: res.body.api_key, vizId: res.body.visualizations[0].id };
  };

  /** Runs a query with the client (max_age 0) and gives the answer, after its job if any. */
  const run = async (client: TestClient, queryId: number) => {
    const res = await client.post(`/api/queries/${queryId}/results`, { max_age: 0 });
    if (res.status !== 200 || res.body.query_result) return res;
    let job = res.body.job;
    while (job.status < 3) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await admin.get(`/api/jobs/${job.id}`)).body.job;
    }
    expect(job.status, JSON.stringify(job)).toBe(3);
    return client.get(`/api/query_results/${job.query_result_id}`);
  };

  const newDashboard = async (client: TestClient, name: string, widgets: Saved[]) => {
    const board = await client.post("/api/dashboards", { name });
    expect(board.status, board.text).toBe(200);
    for (const q of [...widgets, null]) {
      const res = await client.post("/api/widgets", {
        dashboard_id: board.body.id,
        visualization_id: q?.vizId ?? null,
        text: q ? "" : "A note",
        width: 1,
        options: {},
      });
      expect(res.status, res.text).toBe(200);
    }
    return board.body.id as number;
  };

  const share = async (client: TestClient, dashboardId: number) => {
    const res = await client.post(`/api/dashboards/${dashboardId}/share`, {});
    expect(res.status, res.text).toBe(200);
    return res.body.api_key as string;
  };

  /** The public page's widget queries, by id. */
  const publicQueries = async (key: string) => {
    const page = await new TestClient(server.url).get(`/api/dashboards/public/${key}`);
    expect(page.status, page.text).toBe(200);
    return page.body.widgets.flatMap((w: any) =>
      w.visualization ? [w.visualization.query.id] : [],
    );
  };

  /** Every way a key could read the secret query's rows. */
  const expectSecretShut = async (key: string) => {
    const viewer = withKey(server, key);
    refused(await viewer.post(`/api/queries/${secretQ.id}/results`, {}), 403, 404);
    refused(await viewer.post(`/api/queries/${secretQ.id}/results`, { max_age: 0 }), 403, 404);
    for (const path of [
      `/api/queries/${secretQ.id}/results`,
      `/api/queries/${secretQ.id}/results.json`,
      `/api/queries/${secretQ.id}/results.csv`,
      `/api/queries/${secretQ.id}/results/${secretResult}.json`,
      `/api/query_results/${secretResult}`,
      `/api/query_results/${secretResult}.csv`,
    ]) {
      refused(await viewer.get(path), 403, 404);
    }
  };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const store = server.ctx.database.db;
    const org = (await findOrgBySlug(store, "default"))!;
    defaultGroup = await defaultGroupId(store, org.id);
    ({ shop, secret } = await createShopAndSecret(server, admin));
    keepersGroup = (
      await store
        .selectFrom("data_source_groups")
        .select("group_id")
        .where("data_source_id", "=", secret)
        .executeTakeFirstOrThrow()
    ).group_id;
    keeper = await userClient(server, "keeper@example.com", [defaultGroup, keepersGroup]);
    outsider = await userClient(server, "outsider@example.com", [defaultGroup]);
    shopQ = await save(admin, shop, SHOP_TEXT);
    secretQ = await save(admin, secret, SECRET_TEXT);
    const ran = await run(admin, secretQ.id);
    expect(ran.status, ran.text).toBe(200);
    secretResult = ran.body.query_result.id;
    expect((await run(admin, shopQ.id)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a fork copies only the widgets the forker may view, so its share key opens nothing more", async () => {
    const source = await newDashboard(keeper.client, "Both", [shopQ, secretQ]);
    const fork = await outsider.client.post(`/api/dashboards/${source}/fork`, {});
    expect(fork.status, fork.text).toBe(200);
    const widgets = (await outsider.client.get(`/api/dashboards/${fork.body.id}`)).body.widgets;
    // The shop widget and the note; the secret widget is left out, not copied as a locked card.
    expect(widgets).toHaveLength(2);
    expect(widgets.some((w: any) => w.restricted)).toBe(false);
    expect(
      widgets.flatMap((w: any) => (w.visualization ? [w.visualization.query.id] : [])),
    ).toEqual([shopQ.id]);
    // Someone who may see everything still finds the fork holds no secret widget.
    const asAdmin = (await admin.get(`/api/dashboards/${fork.body.id}`)).body.widgets;
    expect(asAdmin).toHaveLength(2);

    const key = await share(outsider.client, fork.body.id);
    expect(await publicQueries(key)).toEqual([shopQ.id]);
    expect((await run(withKey(server, key), shopQ.id)).status).toBe(200);
    await expectSecretShut(key);
    // A keeper's fork keeps both.
    const keeperFork = await keeper.client.post(`/api/dashboards/${source}/fork`, {});
    expect(keeperFork.body.widgets).toHaveLength(3);
  });

  it("a widget another editor adds on a data source the owner cannot use does not run through the owner's key", async () => {
    const board = await newDashboard(outsider.client, "Outsider's", [shopQ]);
    const key = await share(outsider.client, board);
    const grant = await outsider.client.post(`/api/dashboards/${board}/acl`, {
      access_type: "modify",
      user_id: keeper.id,
    });
    expect(grant.status, grant.text).toBe(200);
    const added = await keeper.client.post("/api/widgets", {
      dashboard_id: board,
      visualization_id: secretQ.vizId,
      width: 1,
      options: {},
    });
    expect(added.status, added.text).toBe(200);

    expect(await publicQueries(key)).toEqual([shopQ.id]);
    await expectSecretShut(key);
    const job = await withKey(server, key).get(`/api/queries/${secretQ.id}/results`);
    expect(job.text).not.toContain(SECRET_TEXT);
  });

  it("an owner removed from a data source's group takes the key's reach to it along", async () => {
    const mover = await userClient(server, "mover@example.com", [defaultGroup, keepersGroup]);
    const board = await newDashboard(mover.client, "Mover's", [shopQ, secretQ]);
    const key = await share(mover.client, board);
    const before = await run(withKey(server, key), secretQ.id);
    expect(before.status, before.text).toBe(200);
    expect(before.body.query_result.data.rows).toHaveLength(2);
    expect(await publicQueries(key)).toEqual([shopQ.id, secretQ.id]);

    const removed = await admin.delete(`/api/groups/${keepersGroup}/members/${mover.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(await publicQueries(key)).toEqual([shopQ.id]);
    await expectSecretShut(key);
    expect((await run(withKey(server, key), shopQ.id)).status).toBe(200);
  });

  it("a disabled owner's share key serves nothing, and serves again once they are enabled", async () => {
    const leaver = await userClient(server, "leaver@example.com", [defaultGroup]);
    const board = await newDashboard(leaver.client, "Leaver's", [shopQ]);
    const key = await share(leaver.client, board);
    expect(await publicQueries(key)).toEqual([shopQ.id]);

    expect((await admin.post(`/api/users/${leaver.id}/disable`, {})).status).toBe(200);
    const page = await new TestClient(server.url).get(`/api/dashboards/public/${key}`);
    refused(page, 404);
    refused(await run(withKey(server, key), shopQ.id), 403, 404);
    refused(await withKey(server, key).get(`/api/queries/${shopQ.id}/results`), 403, 404);

    expect((await admin.delete(`/api/users/${leaver.id}/disable`)).status).toBe(200);
    expect(await publicQueries(key)).toEqual([shopQ.id]);
  });

  it("archiving a dashboard ends its public access at once", async () => {
    const board = await newDashboard(admin, "Soon archived", [shopQ]);
    const key = await share(admin, board);
    expect(await publicQueries(key)).toEqual([shopQ.id]);
    const viewer = withKey(server, key);
    expect((await run(viewer, shopQ.id)).status).toBe(200);

    expect((await admin.delete(`/api/dashboards/${board}`)).status).toBe(200);
    refused(await new TestClient(server.url).get(`/api/dashboards/public/${key}`), 404);
    refused(await viewer.post(`/api/queries/${shopQ.id}/results`, {}), 403, 404);
    refused(await viewer.get(`/api/queries/${shopQ.id}/results`), 403, 404);
  });

  it("results read with a share key or a query key are only data and retrieved_at, on every route", async () => {
    const board = await newDashboard(admin, "Trimmed", [shopQ]);
    const key = await share(admin, board);
    const resultId = (await admin.get(`/api/queries/${shopQ.id}`)).body.latest_query_data_id;
    const routes = [
      `/api/query_results/${resultId}`,
      `/api/query_results/${resultId}.json`,
      `/api/queries/${shopQ.id}/results`,
      `/api/queries/${shopQ.id}/results.json`,
      `/api/queries/${shopQ.id}/results/${resultId}.json`,
    ];
    for (const client of [withKey(server, key), withKey(server, shopQ.api_key)]) {
      for (const path of routes) {
        // The query key is named by the route's query (/api/query_results/<id> has none); the
        // share key opens the routes the public page calls (no file of a latest result).
        const queryKey = client.apiKey === shopQ.api_key;
        if (queryKey && path.startsWith("/api/query_results")) continue;
        if (!queryKey && path.endsWith("/results.json")) continue;
        const res = await client.get(path);
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
        expect(Object.keys(res.body.query_result).sort(), path).toEqual(["data", "retrieved_at"]);
        expect(res.body.query_result.data.rows).toHaveLength(2);
        expect(res.text).not.toContain(SHOP_TEXT);
      }
    }
    // Signed-in users, with a session or their own API key, read the full form.
    for (const client of [admin, withKey(server, await ownApiKey(admin))]) {
      const res = await client.get(`/api/query_results/${resultId}`);
      expect(Object.keys(res.body.query_result).sort()).toEqual(
        ["data", "data_source_id", "id", "query", "query_hash", "retrieved_at", "runtime"].sort(),
      );
      expect(res.body.query_result).toMatchObject({ id: resultId, data_source_id: shop });
    }
  });

  it("sharing a dashboard with a text-parameter query is refused with the dialog's message", async () => {
    const unsafe = await save(admin, shop, "SELECT * FROM people WHERE name = '{{ who }}'", {
      parameters: [{ name: "who", title: "who", type: "text", value: "Ann" }],
    });
    const board = await newDashboard(admin, "Unsafe", [shopQ, unsafe]);
    const res = await admin.post(`/api/dashboards/${board}/share`, {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: UNSAFE_SHARE_MESSAGE });
    expect((await admin.get(`/api/dashboards/${board}`)).body.public_url).toBeUndefined();
    const keys = await server.ctx.database.db
      .selectFrom("api_keys")
      .select("id")
      .where("object_type", "=", "dashboards")
      .where("object_id", "=", board)
      .execute();
    expect(keys).toEqual([]);
  });

  it(`a dashboard holds at most ${MAX_WIDGETS_PER_DASHBOARD} widgets; forks of big ones are copied in batches or refused`, async () => {
    const store = server.ctx.database.db;
    const fill = async (dashboardId: number, count: number) => {
      const ts = now();
      const row = {
        dashboard_id: dashboardId,
        visualization_id: shopQ.vizId,
        text: "",
        width: 1,
        options: toJson({}),
        created_at: ts,
        updated_at: ts,
      };
      for (let done = 0; done < count; done += 1000) {
        await store
          .insertInto("widgets")
          .values(Array.from({ length: Math.min(1000, count - done) }, () => row))
          .execute();
      }
    };
    const full = (await admin.post("/api/dashboards", { name: "Full" })).body.id;
    await fill(full, MAX_WIDGETS_PER_DASHBOARD);
    const more = await admin.post("/api/widgets", {
      dashboard_id: full,
      visualization_id: null,
      text: "One too many",
      width: 1,
      options: {},
    });
    expect(more.status).toBe(400);
    expect(more.body).toEqual({ message: TOO_MANY_WIDGETS_MESSAGE });
    expect(TOO_MANY_WIDGETS_MESSAGE).toContain(String(MAX_WIDGETS_PER_DASHBOARD));
    const copy = await admin.post(`/api/dashboards/${full}/fork`, {});
    expect(copy.status, copy.text.slice(0, 200)).toBe(200);
    expect(copy.body.widgets).toHaveLength(MAX_WIDGETS_PER_DASHBOARD);

    const huge = (await admin.post("/api/dashboards", { name: "Huge" })).body.id;
    await fill(huge, 10_000);
    const before = await store.selectFrom("dashboards").select("id").execute();
    const refusedFork = await admin.post(`/api/dashboards/${huge}/fork`, {});
    expect(refusedFork.status, refusedFork.text.slice(0, 200)).toBe(400);
    expect(refusedFork.body).toEqual({ message: TOO_MANY_WIDGETS_MESSAGE });
    expect(await store.selectFrom("dashboards").select("id").execute()).toHaveLength(before.length);
  });
});
