// SECURITY.md rule 5 for stored results: a Query Results query's stored rows are served (JSON,
// downloads, dropdowns, cached answers) only to readers who may see the queries it read, however
// deeply; a query API key opens only its own query's results, on its own data source.
import fs from "node:fs";
import path from "node:path";
import SQLite from "../store/sqliteDriver.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { createDataSource, TestClient } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { defaultGroupId } from "../services/organizationSetup";
import { findQuery } from "../store/queries";
import { findUserByEmail } from "../store/users";
import { userIdentity } from "../auth/identity";
import { principalOf } from "../execution/principal";
import { dropdownValues } from "../services/queryDropdowns";
import { saveAndRun, settledJob, startWithAdmin, linkGroup, newGroup } from "../testing/apiServer";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

const SECRET = "Alice";

interface SavedQuery {
  id: number;
  api_key: string;
  query: string;
}

describe.each(DATABASES)("access to stored results on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let hrMember: TestClient;
  let resultsDs: number;
  let branchDs: number;
  let hr: SavedQuery;
  let shop: SavedQuery;
  let overHr: SavedQuery;
  let overHrResult: number;
  let chained: SavedQuery;
  let chainedResult: number;
  let overShop: SavedQuery;
  let overShopResult: number;
  let chainedOverShop: SavedQuery;

  function staffFile(name: string, who: string, salary: number) {
    const dir = server.config.fileDataDir!;
    fs.mkdirSync(dir, { recursive: true });
    const data = new SQLite(path.join(dir, name));
    data.exec(
      "CREATE TABLE staff (name TEXT, salary INTEGER);" +
        `INSERT INTO staff VALUES ('${who}', ${salary});`,
    );
    data.close();
    return name;
  }

  /** Saves a query as the admin and runs it; returns it with its stored result id. */
  const saved = (dataSourceId: number, text: string) =>
    saveAndRun<SavedQuery>(admin, dataSourceId, text);

  /** Every way to read a stored result of `query`: JSON, downloads, by result id. */
  function readRoutes(query: SavedQuery, resultId: number) {
    return [
      `/api/queries/${query.id}/results`,
      `/api/queries/${query.id}/results.json`,
      `/api/queries/${query.id}/results.csv`,
      `/api/queries/${query.id}/results.tsv`,
      `/api/queries/${query.id}/results.xlsx`,
      `/api/query_results/${resultId}`,
      `/api/query_results/${resultId}.json`,
      `/api/query_results/${resultId}.csv`,
      `/api/query_results/${resultId}.tsv`,
      `/api/query_results/${resultId}.xlsx`,
      `/api/queries/${query.id}/results/${resultId}.json`,
      `/api/queries/${query.id}/results/${resultId}.csv`,
      `/api/queries/${query.id}/results/${resultId}.xlsx`,
    ];
  }

  async function expectRefused(client: TestClient, url: string, method = "GET", body?: unknown) {
    const res = await client.request(method, url, body === undefined ? {} : { json: body });
    expect(res.status, `${method} ${url}: ${res.text.slice(0, 200)}`).toBe(403);
    const message = res.body.message ?? res.body.job?.error;
    expect(message, url).toBe(`You do not have access to query id ${hr.id}.`);
    expect(res.text).not.toContain(SECRET);
  }

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const dbx = server.ctx.database.db;
    const org = (await findOrgBySlug(dbx, "default"))!;
    const defaultGroup = await defaultGroupId(dbx, org.id);

    // HR data: a data source linked only to the HR group.
    const hrGroup = await newGroup(server, "HR");
    const hrDs = await createDataSource(admin, "HR", "sqlite", {
      dbpath: staffFile("hr.sqlite", SECRET, 250000),
    });
    expect((await admin.delete(`/api/groups/${defaultGroup}/data_sources/${hrDs}`)).status).toBe(
      200,
    );
    await linkGroup(server, hrDs, hrGroup.id, false);
    // Data every default-group user may see, and a Query Results source linked to that group.
    const shopDs = await createDataSource(admin, "Shop", "sqlite", {
      dbpath: staffFile("shop.sqlite", "Bob", 1),
    });
    branchDs = await createDataSource(admin, "Branch", "sqlite", {
      dbpath: staffFile("branch.sqlite", "Carol", 2),
    });
    resultsDs = await createDataSource(admin, "Query Results", "results", {});

    ({ client: user } = await userClient(server, "uma@example.com"));
    ({ client: hrMember } = await userClient(server, "hank@example.com", [
      defaultGroup,
      hrGroup.id,
    ]));

    hr = (await saved(hrDs, "SELECT name, salary FROM staff")).query;
    shop = (await saved(shopDs, "SELECT name, salary FROM staff ORDER BY name")).query;
    ({ query: overHr, resultId: overHrResult } = await saved(
      resultsDs,
      `SELECT name, salary FROM query_${hr.id}`,
    ));
    ({ query: chained, resultId: chainedResult } = await saved(
      resultsDs,
      `SELECT name FROM query_${overHr.id}`,
    ));
    ({ query: overShop, resultId: overShopResult } = await saved(
      resultsDs,
      `SELECT name, salary FROM query_${shop.id}`,
    ));
    chainedOverShop = (await saved(resultsDs, `SELECT name FROM query_${overShop.id}`)).query;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("the stored result of a Query Results query over restricted data is refused on every route", async () => {
    // The user may run queries on the Query Results source but not see the HR query.
    expect((await user.get(`/api/queries/${hr.id}/results`)).status).toBe(403);
    for (const url of readRoutes(overHr, overHrResult)) await expectRefused(user, url);
    await expectRefused(user, `/api/queries/${overHr.id}/dropdown`);
    // Running it again is refused as before.
    await expectRefused(user, `/api/queries/${overHr.id}/results`, "POST", { max_age: -1 });

    // Its API key is shown to whoever sees the query: it opens no more than the user's session.
    const keyed = new TestClient(server.url);
    keyed.apiKey = overHr.api_key;
    await expectRefused(keyed, `/api/queries/${overHr.id}/results.csv`);
    await expectRefused(keyed, `/api/queries/${overHr.id}/results/${overHrResult}.json`);
  });

  it("a Query Results query over another one is judged by everything it read, for reading and running", async () => {
    for (const url of readRoutes(chained, chainedResult)) await expectRefused(user, url);
    await expectRefused(user, `/api/queries/${chained.id}/dropdown`);
    await expectRefused(user, `/api/queries/${chained.id}/results`, "POST", { max_age: 0 });
    await expectRefused(user, `/api/queries/${chained.id}/results`, "POST", { max_age: -1 });
    // The same text run ad hoc: neither the cached answer nor a new run.
    for (const maxAge of [-1, 0]) {
      await expectRefused(user, "/api/query_results", "POST", {
        data_source_id: resultsDs,
        query: chained.query,
        max_age: maxAge,
      });
    }
  });

  it("dropdowns over such a query neither list nor validate its values", async () => {
    const parent = await user.post("/api/queries", {
      name: "parent",
      data_source_id: resultsDs,
      query: "SELECT '{{who}}' AS who",
      options: {
        parameters: [{ name: "who", type: "query", queryId: overHr.id, value: null }],
      },
    });
    expect(parent.status).toBe(200);
    await expectRefused(user, `/api/queries/${parent.body.id}/dropdowns/${overHr.id}`);
    // Validating a value against the hidden list would tell whether it is in it.
    await expectRefused(user, `/api/queries/${parent.body.id}/results`, "POST", {
      parameters: { who: SECRET },
      max_age: 0,
    });
  });

  it("readers who may see what a result read still get it", async () => {
    const own = await admin.get(`/api/queries/${chained.id}/results`);
    expect(own.status).toBe(200);
    expect(own.body.query_result.data.rows).toEqual([{ name: SECRET }]);
    for (const url of readRoutes(overHr, overHrResult)) {
      expect((await hrMember.get(url)).status, url).toBe(200);
    }
    const csv = await hrMember.get(`/api/query_results/${overHrResult}.csv`);
    expect(csv.text).toContain(`${SECRET},250000`);
    expect((await hrMember.get(`/api/queries/${chained.id}/results`)).status).toBe(200);
    // The routes judge dropdowns for their caller: who may see the HR rows gets them as options.
    const hrDropdown = await hrMember.get(`/api/queries/${overHr.id}/dropdown`);
    expect(hrDropdown.status).toBe(200);
    expect(JSON.stringify(hrDropdown.body)).toContain(SECRET);

    // Over data the default group may see: everything works for its users.
    for (const url of readRoutes(overShop, overShopResult)) {
      expect((await user.get(url)).status, url).toBe(200);
    }
    const latest = await user.get(`/api/queries/${chainedOverShop.id}/results`);
    expect(latest.status).toBe(200);
    expect(latest.body.query_result.data.rows).toEqual([{ name: "Bob" }]);
    const dropdown = await user.get(`/api/queries/${overShop.id}/dropdown`);
    expect(dropdown.status).toBe(200);
    expect(JSON.stringify(dropdown.body)).toContain("Bob");
    const rerun = await user.post(`/api/queries/${chainedOverShop.id}/results`, { max_age: 0 });
    expect(rerun.status).toBe(200);
    const job = await settledJob(user, rerun.body);
    if (job) expect(job.status).toBe(3);
  });

  it("dropdown values are judged for the reader when the caller names one", async () => {
    const dbx = server.ctx.database.db;
    const org = (await findOrgBySlug(dbx, "default"))!;
    const reader = async (email: string) =>
      principalOf(await userIdentity(dbx, (await findUserByEmail(dbx, org.id, email))!, false));
    const source = (await findQuery(dbx, org.id, chained.id))!;
    await expect(
      dropdownValues(dbx, org.id, source, await reader("hank@example.com")),
    ).resolves.toEqual([{ name: SECRET, value: SECRET }]);
    await expect(
      dropdownValues(dbx, org.id, source, await reader("uma@example.com")),
    ).rejects.toMatchObject({
      statusCode: 403,
      message: `You do not have access to query id ${hr.id}.`,
    });
    await expect(dropdownValues(dbx, org.id, source, null)).rejects.toMatchObject({
      statusCode: 403,
    });
    // Without a reader: only when every group that may use the data source may see it all.
    await expect(dropdownValues(dbx, org.id, source)).rejects.toMatchObject({ statusCode: 403 });
    const open = (await findQuery(dbx, org.id, chainedOverShop.id))!;
    await expect(dropdownValues(dbx, org.id, open)).resolves.toEqual([
      { name: "Bob", value: "Bob" },
    ]);
  });

  it("a query API key does not open a result of the same text on another data source", async () => {
    const elsewhere = await admin.post("/api/query_results", {
      data_source_id: branchDs,
      query: shop.query,
      max_age: 0,
    });
    expect(elsewhere.status).toBe(200);
    const otherId =
      elsewhere.body.query_result?.id ?? (await settledJob(admin, elsewhere.body))?.query_result_id;
    expect(otherId).toBeTypeOf("number");

    const keyed = new TestClient(server.url);
    keyed.apiKey = shop.api_key;
    const own = await keyed.get(`/api/queries/${shop.id}/results`);
    expect(own.status).toBe(200);
    expect(own.text).toContain("Bob");
    for (const type of ["json", "csv"]) {
      const res = await keyed.get(`/api/queries/${shop.id}/results/${otherId}.${type}`);
      expect(res.status, type).toBe(404);
      expect(res.body.message).toBe("No cached result found for this query.");
      expect(res.text).not.toContain("Carol");
    }
  });
});
