// SECURITY.md rule 5 for dropdown options (issue 14): a saved query never adopts a result its
// saver may not read; every dropdown query is checked on its own, when saved and when read; a
// query API key reaches only the dropdown queries its own query's parameters name; a disabled
// user's query API keys stop working.
import fs from "node:fs";
import path from "node:path";
import SQLite from "../store/sqliteDriver.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { createDataSource, TestClient } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { defaultGroupId } from "../services/organizationSetup";
import { saveAndRun, startWithAdmin, linkGroup, newGroup } from "../testing/apiServer";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

/** The one row of the restricted data source: no answer to an outsider may contain it. */
const SECRET = "Alice Secret";

interface SavedQuery {
  id: number;
  api_key: string;
  latest_query_data_id: number | null;
}

describe.each(DATABASES)("dropdown options and query keys on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let uma: TestClient;
  let hrMember: TestClient;
  let openDs: number;
  let secret: SavedQuery;
  let secretResult: number;
  let umaSource: SavedQuery;
  let umaSourceResult: number;

  function sqliteFile(name: string, rows: [string, string][]) {
    const dir = server.config.fileDataDir!;
    fs.mkdirSync(dir, { recursive: true });
    const data = new SQLite(path.join(dir, name));
    data.exec("CREATE TABLE people (name TEXT, value TEXT)");
    const insert = data.prepare("INSERT INTO people VALUES (?, ?)");
    for (const row of rows) insert.run(...row);
    data.close();
    return name;
  }

  /** Creates a query as `client` and runs it; returns it with its stored result's id. */
  const saved = (client: TestClient, dataSourceId: number, text: string, options = {}) =>
    saveAndRun<SavedQuery>(client, dataSourceId, text, options);

  const queryParams = (...ids: number[]) => ({
    parameters: ids.map((id, i) => ({ name: `p${i}`, type: "query", queryId: id, value: null })),
  });

  /** Stores fields as a query saved before these checks existed might hold them. */
  async function plant(
    queryId: number,
    fields: { latest_query_data_id?: number; options?: object },
  ) {
    const { options, ...rest } = fields;
    await server.ctx.database.db
      .updateTable("queries")
      .set({ ...rest, ...(options ? { options: JSON.stringify(options) } : {}) })
      .where("id", "=", queryId)
      .execute();
  }

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const dbx = server.ctx.database.db;
    const org = (await findOrgBySlug(dbx, "default"))!;
    const defaultGroup = await defaultGroupId(dbx, org.id);

    // A data source only the HR group may use, and one every default-group user may use.
    const hrGroup = await newGroup(server, "HR");
    const secretDs = await createDataSource(admin, "HR", "sqlite", {
      dbpath: sqliteFile("hr.sqlite", [[SECRET, SECRET]]),
    });
    expect(
      (await admin.delete(`/api/groups/${defaultGroup}/data_sources/${secretDs}`)).status,
    ).toBe(200);
    await linkGroup(server, secretDs, hrGroup.id, false);
    openDs = await createDataSource(admin, "Shop", "sqlite", {
      dbpath: sqliteFile("shop.sqlite", [
        ["John", "John Doe"],
        ["Ann", "Ann Lee"],
      ]),
    });

    ({ client: uma } = await userClient(server, "uma@example.com"));
    ({ client: hrMember } = await userClient(server, "hank@example.com", [
      defaultGroup,
      hrGroup.id,
    ]));
    ({ query: secret, resultId: secretResult } = await saved(
      admin,
      secretDs,
      "SELECT name, value FROM people",
    ));
    ({ query: umaSource, resultId: umaSourceResult } = await saved(
      uma,
      openDs,
      "SELECT name, value FROM people ORDER BY 1",
    ));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("a saved query never adopts a result its saver may not read", async () => {
    // The same text on the user's own data source, pointing at the HR result.
    const created = await uma.post("/api/queries", {
      name: "copy",
      data_source_id: openDs,
      query: "SELECT name, value FROM people",
      latest_query_data_id: secretResult,
    });
    expect(created.status).toBe(200);
    expect(created.body.latest_query_data_id).not.toBe(secretResult);
    const fromCreate = await uma.get(`/api/queries/${created.body.id}/dropdown`);
    expect(fromCreate.status).toBe(200);
    expect(fromCreate.text).not.toContain(SECRET);

    // Saving a query whose text has not run yet.
    const fresh = await uma.post("/api/queries", {
      name: "fresh",
      data_source_id: openDs,
      query: "SELECT value AS name FROM people",
    });
    const save = await uma.post(`/api/queries/${fresh.body.id}`, {
      latest_query_data_id: secretResult,
    });
    expect(save.status).toBe(200);
    expect(save.body.latest_query_data_id).toBeNull();
    const fromSave = await uma.get(`/api/queries/${fresh.body.id}/dropdown`);
    expect(fromSave.status).toBe(200);
    expect(fromSave.text).not.toContain(SECRET);

    // A result of other text on the same data source is not this query's either.
    const other = await saved(uma, openDs, "SELECT 'x' AS name, 'y' AS value");
    const mismatched = await uma.post(`/api/queries/${umaSource.id}`, {
      latest_query_data_id: other.resultId,
    });
    expect(mismatched.body.latest_query_data_id).toBe(umaSourceResult);

    // What Redash's client sends on save, the result the user just ran, is kept.
    const rerun = await saved(uma, openDs, "SELECT 'z' AS name");
    const own = await uma.post(`/api/queries/${rerun.query.id}`, {
      name: "renamed",
      latest_query_data_id: rerun.resultId,
    });
    expect(own.status).toBe(200);
    expect(own.body.latest_query_data_id).toBe(rerun.resultId);
  });

  it("the dropdown route checks the result it serves like the result routes", async () => {
    // A pointer stored before the save checks: the HR result is not served as options.
    const { query: planted } = await saved(uma, openDs, "SELECT name, value FROM people");
    await plant(planted.id, { latest_query_data_id: secretResult });
    expect((await uma.get(`/api/queries/${planted.id}/results`)).status).toBe(403);
    const options = await uma.get(`/api/queries/${planted.id}/dropdown`);
    expect(options.text).not.toContain(SECRET);
    expect(options.status).toBe(200);
    expect(options.body).toEqual([]);
    // Nor does a parameter on that query validate against them.
    const parent = await uma.post("/api/queries", {
      name: "parent",
      data_source_id: openDs,
      query: "SELECT '{{p0}}' AS who",
      options: queryParams(planted.id),
    });
    expect(parent.status).toBe(200);
    const run = await uma.post(`/api/queries/${parent.body.id}/results`, {
      parameters: { p0: SECRET },
      max_age: 0,
    });
    expect(run.status).toBe(400);
    expect(run.text).not.toContain(SECRET);
  });

  it("each dropdown query is checked on its own when saved", async () => {
    const both = queryParams(umaSource.id, secret.id);
    const create = await uma.post("/api/queries", {
      name: "two dropdowns",
      data_source_id: openDs,
      query: "SELECT '{{p0}}', '{{p1}}'",
      options: both,
    });
    expect(create.status).toBe(403);
    expect(create.body.message).toBeTypeOf("string");

    const mine = await saved(uma, openDs, "SELECT 1 AS one");
    const save = await uma.post(`/api/queries/${mine.query.id}`, { options: both });
    expect(save.status).toBe(403);
    expect((await uma.get(`/api/queries/${mine.query.id}`)).body.options).toEqual({});

    // Who may see both data sources may associate both.
    const allowed = await hrMember.post("/api/queries", {
      name: "two dropdowns",
      data_source_id: openDs,
      query: "SELECT '{{p0}}', '{{p1}}'",
      options: both,
    });
    expect(allowed.status).toBe(200);
    const hrOptions = await hrMember.get(`/api/queries/${allowed.body.id}/dropdowns/${secret.id}`);
    expect(hrOptions.status).toBe(200);
    expect(hrOptions.text).toContain(SECRET);
  });

  it("each dropdown query is checked on its own when read", async () => {
    // An association stored before the save check: the user's parent names the HR query.
    const { query: parent } = await saved(uma, openDs, "SELECT 2 AS two");
    await plant(parent.id, { options: queryParams(umaSource.id, secret.id) });
    const foreign = await uma.get(`/api/queries/${parent.id}/dropdowns/${secret.id}`);
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain(SECRET);
    const run = await uma.post(`/api/queries/${parent.id}/results`, {
      parameters: { p0: "John Doe", p1: SECRET },
      max_age: 0,
    });
    expect(run.status).toBe(403);
    expect(run.text).not.toContain(SECRET);
    // Its own dropdown still works.
    const ownOptions = await uma.get(`/api/queries/${parent.id}/dropdowns/${umaSource.id}`);
    expect(ownOptions.status).toBe(200);
    expect(ownOptions.text).toContain("John Doe");
  });

  it("a query API key reaches only the dropdown queries its query's parameters name", async () => {
    const keyed = (
      await uma.post("/api/queries", {
        name: "embedded",
        data_source_id: openDs,
        query: "SELECT '{{p0}}' AS who",
        options: {
          parameters: [{ name: "p0", type: "query", queryId: umaSource.id, value: "John Doe" }],
        },
      })
    ).body as SavedQuery;
    const { query: unnamed } = await saved(admin, openDs, "SELECT 'Zed' AS name, 'Zed Z' AS value");
    const key = new TestClient(server.url);
    key.apiKey = keyed.api_key;

    const named = await key.get(`/api/queries/${keyed.id}/dropdowns/${umaSource.id}`);
    expect(named.status).toBe(200);
    expect(named.body).toEqual([
      { name: "Ann", value: "Ann Lee" },
      { name: "John", value: "John Doe" },
    ]);
    // A query on a data source sharing a group with the key's own, but not named by it.
    const other = await key.get(`/api/queries/${keyed.id}/dropdowns/${unnamed.id}`);
    expect(other.status).toBe(403);
    expect(other.text).not.toContain("Zed");
    const hr = await key.get(`/api/queries/${keyed.id}/dropdowns/${secret.id}`);
    expect(hr.status).toBe(403);
    expect(hr.text).not.toContain(SECRET);
    // The key names no other query in the route.
    const elsewhere = await key.get(`/api/queries/${unnamed.id}/dropdowns/${umaSource.id}`);
    expect(elsewhere.status).not.toBe(200);
  });

  it("a disabled user's query API keys stop working", async () => {
    const { client: owner, id: ownerId } = await userClient(server, "otto@example.com");
    const { query } = await saved(owner, openDs, "SELECT name, value FROM people ORDER BY 1");
    const key = new TestClient(server.url);
    key.apiKey = query.api_key;
    expect((await key.get(`/api/queries/${query.id}/results`)).status).toBe(200);

    expect((await admin.post(`/api/users/${ownerId}/disable`)).status).toBe(200);
    const read = await key.get(`/api/queries/${query.id}/results.csv`);
    // Unrecognised like any unknown key: the login-required answer.
    expect(read.status).toBe(404);
    expect(read.body.message).toBe("Couldn't find resource. Please login and try again.");
    expect(read.text).not.toContain("John Doe");
    const run = await key.post(`/api/queries/${query.id}/results`, { max_age: 0 });
    expect(run.status).toBe(404);
    expect((await key.get(`/api/queries/${query.id}`)).status).toBe(404);

    // Enabled again, the key works again.
    expect((await admin.delete(`/api/users/${ownerId}/disable`)).status).toBe(200);
    expect((await key.get(`/api/queries/${query.id}/results.csv`)).text).toContain("John Doe");
  });
});
