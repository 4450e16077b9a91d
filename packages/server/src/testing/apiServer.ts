// Set-up shared by the API suites that make their own data sources and queries.
import fs from "node:fs";
import path from "node:path";
import SQLite from "../store/sqliteDriver.mjs";
import { expect } from "vitest";
import { DEFAULT_GROUP_PERMISSIONS } from "@sightline/core";
import { insertDataSourceInGroups } from "../store/dataSources";
import { addDataSourceLink, setDataSourceViewOnly } from "../store/groups";
import { findOrgBySlug, insertOrg } from "../store/organizations";
import { insertSnippet } from "../store/querySnippets";
import { insertGroup, insertUser } from "../store/users";
import { insertVisualization } from "../store/visualizations";
import { createDataSource, setUpAndLogin, type TestClient } from "./httpClient";
import { insertTestQuery } from "./storeRows";
import { startTestServer, type MetadataDb, type TestServer } from "./testServer";

/**
 * A server after first-run setup with its admin signed in, without the demo data source, queries
 * and dashboard setup would add: the suite's counts and lists hold only what it made.
 */
export async function startWithAdmin(
  db: MetadataDb,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; admin: TestClient }> {
  const server = await startTestServer(db, env, { afterSetup: async () => {} });
  try {
    return { server, admin: await setUpAndLogin(server.url) };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The same, with an in-memory DuckDB data source ("memory") made by the admin. */
export async function startWithDuckdb(
  db: MetadataDb,
): Promise<{ server: TestServer; admin: TestClient; dataSourceId: number }> {
  const { server, admin } = await startWithAdmin(db);
  // DuckDB's runs are confined to the server's file data folder, made here as a deployment has it.
  fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
  const dataSourceId = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
  return { server, admin, dataSourceId };
}

/**
 * Two SQLite data sources over the small `people` table (makeSqliteFile): Shop, in the default
 * group as every new data source, and Secret, taken out of it and given to "secret keepers" only.
 */
export async function createShopAndSecret(
  server: TestServer,
  admin: TestClient,
): Promise<{ shop: number; secret: number }> {
  const shop = await createShopDataSource(server, admin);
  const secret = await createShopDataSource(server, admin, "Secret");
  await server.ctx.database.db
    .deleteFrom("data_source_groups")
    .where("data_source_id", "=", secret)
    .execute();
  const keepers = await newGroup(server, "secret keepers");
  await linkGroup(server, secret, keepers.id, false);
  return { shop, secret };
}

/** Saves a query as the client and publishes it; returns the saved query as the API answers. */
export async function publishQuery(
  client: TestClient,
  dataSourceId: number,
  name: string,
  text: string,
): Promise<{ id: number; visualizations: { id: number }[] }> {
  const res = await client.post("/api/queries", {
    name,
    query: text,
    data_source_id: dataSourceId,
  });
  if (res.status !== 200) throw new Error(`saving ${name} failed: ${res.status} ${res.text}`);
  await client.post(`/api/queries/${res.body.id}`, { is_draft: false });
  return res.body;
}

/** Polls the job of an API answer until it has ended (or 60 s have passed); the job last seen. */
export async function settledJob(client: TestClient, body: any): Promise<any> {
  let job = body.job;
  for (let i = 0; job && job.status < 3 && i < 1200; i += 1) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await client.get(`/api/jobs/${job.id}`)).body.job;
  }
  return job;
}

/** Runs a text on the data source through /api/query_results (max_age 0); the stored result's id. */
export async function runToResult(
  client: TestClient,
  dataSourceId: number,
  query: string,
): Promise<number> {
  const run = await client.post("/api/query_results", {
    data_source_id: dataSourceId,
    query,
    max_age: 0,
  });
  expect(run.status, run.text).toBe(200);
  if (run.body.query_result) return run.body.query_result.id;
  const job = await settledJob(client, run.body);
  expect(job?.status, `the run failed: ${JSON.stringify(job)}`).toBe(3);
  return job.query_result_id;
}

/** Saves a query as the client and runs it; returns the saved query and its stored result's id. */
export async function saveAndRun<Saved>(
  client: TestClient,
  dataSourceId: number,
  text: string,
  options?: Record<string, unknown>,
): Promise<{ query: Saved; resultId: number }> {
  const created = await client.post("/api/queries", {
    name: text,
    data_source_id: dataSourceId,
    query: text,
    ...(options === undefined ? {} : { options }),
  });
  expect(created.status, created.text).toBe(200);
  const run = await client.post(`/api/queries/${created.body.id}/results`, { max_age: 0 });
  expect(run.status, run.text).toBe(200);
  const resultId =
    run.body.query_result?.id ?? (await settledJob(client, run.body))?.query_result_id;
  expect(resultId, `running ${text}: ${run.text}`).toBeTypeOf("number");
  return { query: created.body as Saved, resultId: resultId as number };
}

/** A SQLite data source over the small `people` table (makeSqliteFile); returns its id. */
export function createShopDataSource(
  server: TestServer,
  admin: TestClient,
  name = "Shop",
): Promise<number> {
  return createDataSource(admin, name, "sqlite", { dbpath: makeSqliteFile(server) });
}

/** A SQLite file in the server's allowed data folder with a small table; returns its name. */
export function makeSqliteFile(server: TestServer, name = "shop.sqlite"): string {
  const dir = server.config.fileDataDir!;
  fs.mkdirSync(dir, { recursive: true });
  const db = new SQLite(path.join(dir, name));
  db.exec(
    "CREATE TABLE IF NOT EXISTS people (id INTEGER PRIMARY KEY, name TEXT, value TEXT);" +
      "DELETE FROM people;" +
      "INSERT INTO people VALUES (1, 'John', 'John Doe'), (2, 'Ann', 'Ann Lee');",
  );
  db.close();
  return name;
}

/** A regular group of the default organisation. */
export async function newGroup(
  server: TestServer,
  name: string,
  permissions: readonly string[] = DEFAULT_GROUP_PERMISSIONS,
) {
  const db = server.ctx.database.db;
  const org = (await findOrgBySlug(db, "default"))!;
  return insertGroup(db, org.id, name, "regular", [...permissions]);
}

/** Gives the group the data source, with full access or view only. */
export async function linkGroup(
  server: TestServer,
  dataSourceId: number,
  groupId: number,
  viewOnly: boolean,
) {
  const db = server.ctx.database.db;
  await addDataSourceLink(db, groupId, dataSourceId);
  if (viewOnly) await setDataSourceViewOnly(db, groupId, dataSourceId, true);
}

/**
 * A second organisation with a user, a data source (in no group), a query with a visualization,
 * and a snippet: objects the suites reach only by id, to see them refused.
 */
export async function otherOrgObjects(server: TestServer) {
  const db = server.ctx.database.db;
  const unique = Date.now();
  const org = await insertOrg(db, "Other", `other-${unique}`);
  const group = await insertGroup(db, org.id, "default", "builtin", [...DEFAULT_GROUP_PERMISSIONS]);
  const user = await insertUser(db, {
    orgId: org.id,
    name: "Other",
    email: `other-${unique}@example.com`,
    passwordHash: null,
    groupIds: [group.id],
    invitationPending: false,
  });
  const dataSource = await insertDataSourceInGroups(
    db,
    { orgId: org.id, name: "Other DS", type: "sqlite", encryptedOptions: "v1.x.y.z" },
    [],
  );
  const query = await insertTestQuery(db, org.id, {
    dataSourceId: dataSource.id,
    userId: user.id,
    lastModifiedById: user.id,
    name: "Other query",
    text: "SELECT 1",
    hash: "x",
  });
  const visualization = await insertVisualization(db, query.id, {
    type: "TABLE",
    name: "T",
    description: null,
    options: {},
  });
  const snippet = await insertSnippet(db, org.id, user.id, {
    trigger: "other",
    description: "",
    snippet: "x",
  });
  return { org, user, dataSource, query, visualization, snippet };
}
