// Fixtures shared by the data source / query API tests.
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { hashPassword } from "../auth/passwords";
import { findOrgBySlug, insertOrg } from "../store/organizations";
import { insertGroup, insertUser } from "../store/users";
import { defaultGroupId } from "../services/organizationSetup";
import { DEFAULT_GROUP_PERMISSIONS } from "@sightline/core";
import { TestClient } from "../testing/httpClient";
import type { TestServer } from "../testing/testServer";

export const PASSWORD = "secret-pass-1";

/** A SQLite file in the server's allowed data folder with a small table. */
export function makeSqliteFile(server: TestServer, name = "shop.sqlite"): string {
  const dir = server.config.fileDataDir!;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const db = new SQLite(file);
  db.exec(
    "CREATE TABLE IF NOT EXISTS people (id INTEGER PRIMARY KEY, name TEXT, value TEXT);" +
      "DELETE FROM people;" +
      "INSERT INTO people VALUES (1, 'John', 'John Doe'), (2, 'Ann', 'Ann Lee');",
  );
  db.close();
  return name;
}

/** A user of the default org in the given groups (default group when none given), signed in. */
export async function userClient(
  server: TestServer,
  email: string,
  groupIds?: number[],
): Promise<{ client: TestClient; id: number }> {
  const db = server.ctx.database.db;
  const org = (await findOrgBySlug(db, "default"))!;
  const user = await insertUser(db, {
    orgId: org.id,
    name: email.split("@")[0]!,
    email,
    passwordHash: await hashPassword(PASSWORD),
    groupIds: groupIds ?? [await defaultGroupId(db, org.id)],
    invitationPending: false,
  });
  const client = new TestClient(server.url);
  const res = await client.login(email, PASSWORD);
  if (res.status !== 302) throw new Error(`login failed: ${res.status}`);
  return { client, id: user.id };
}

export async function newGroup(
  server: TestServer,
  name: string,
  permissions: readonly string[] = DEFAULT_GROUP_PERMISSIONS,
) {
  const db = server.ctx.database.db;
  const org = (await findOrgBySlug(db, "default"))!;
  return insertGroup(db, org.id, name, "regular", [...permissions]);
}

export async function linkGroup(
  server: TestServer,
  dataSourceId: number,
  groupId: number,
  viewOnly: boolean,
) {
  await server.ctx.database.db
    .insertInto("data_source_groups")
    .values({ data_source_id: dataSourceId, group_id: groupId, view_only: viewOnly })
    .execute();
}

/** A second organisation with an admin user, a data source and a query, reached only by id. */
export async function otherOrgObjects(server: TestServer) {
  const db = server.ctx.database.db;
  const org = await insertOrg(db, "Other", `other-${Date.now()}`);
  const group = await insertGroup(db, org.id, "default", "builtin", [...DEFAULT_GROUP_PERMISSIONS]);
  const user = await insertUser(db, {
    orgId: org.id,
    name: "Other",
    email: `other-${Date.now()}@example.com`,
    passwordHash: null,
    groupIds: [group.id],
    invitationPending: false,
  });
  const ts = new Date().toISOString();
  const ds = await db
    .insertInto("data_sources")
    .values({
      org_id: org.id,
      name: "Other DS",
      type: "sqlite",
      encrypted_options: "v1.x.y.z",
      queue_name: "queries",
      scheduled_queue_name: "scheduled_queries",
      paused: false,
      pause_reason: null,
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const query = await db
    .insertInto("queries")
    .values({
      version: 1,
      org_id: org.id,
      data_source_id: ds.id,
      latest_query_data_id: null,
      name: "Other query",
      description: null,
      query: "SELECT 1",
      query_hash: "x",
      api_key: `k${Date.now()}`.padEnd(40, "0"),
      user_id: user.id,
      last_modified_by_id: user.id,
      is_archived: false,
      is_draft: false,
      schedule: null,
      schedule_failures: 0,
      options: "{}",
      tags: "[]",
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const viz = await db
    .insertInto("visualizations")
    .values({
      type: "TABLE",
      query_id: query.id,
      name: "T",
      description: null,
      options: "{}",
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const snippet = await db
    .insertInto("query_snippets")
    .values({
      org_id: org.id,
      trigger: "other",
      description: "",
      user_id: user.id,
      snippet: "x",
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { org, user, dataSource: ds, query, visualization: viz, snippet };
}
