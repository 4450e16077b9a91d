// A real metadata store with an organisation, groups, users, data sources and queries, for the
// execution tests. Not a mock: the same repositories and migrations as the server.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deriveKeys, type Keys } from "../auth/secretKey";
import { loadConfig, type Config } from "../config";
import type { ResultMeta } from "../results";
import type { Cell, DataSourceOptions, ResultColumn } from "../runners/types";
import { writeDataSourceOptions } from "../services/dataSourceOptions";
import { insertDataSource } from "../store/dataSources";
import { openDatabase, type Database } from "../store/database";
import { migrate } from "../store/migrate";
import { insertOrg } from "../store/organizations";
import { insertQuery, type Query } from "../store/queries";
import { insertGroup, insertUser, type User } from "../store/users";
import { storeLatestResult } from "../testing/storeRows";
import { queryHash } from "./hash";

export interface TestStore {
  database: Database;
  config: Config;
  keys: Keys;
  orgId: number;
  /** Built-in groups: admin (every permission) and default (linked to every new data source). */
  adminGroupId: number;
  defaultGroupId: number;
  admin: User;
  addUser(groupIds: number[]): Promise<User>;
  addGroup(name: string): Promise<number>;
  addDataSource(type: string, options: DataSourceOptions, groupId?: number): Promise<number>;
  addQuery(fields: {
    dataSourceId: number;
    text: string;
    userId?: number;
    schedule?: Record<string, unknown> | null;
    archived?: boolean;
  }): Promise<Query>;
  /** Stores rows as the query's latest result. */
  storeResult(query: Query, columns: ResultColumn[], rows: Cell[][]): Promise<ResultMeta>;
  close(): Promise<void>;
}

export async function openTestStore(env: Record<string, string> = {}): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-exec-"));
  const config = loadConfig({ SIGHTLINE_DATA_DIR: dir, ...env });
  if (config.fileDataDir) fs.mkdirSync(config.fileDataDir, { recursive: true });
  const database = await openDatabase(config.databaseUrl);
  await migrate(database);
  const db = database.db;
  const keys = deriveKeys(crypto.randomBytes(32).toString("hex"));
  const org = await insertOrg(db, "Test", `t${crypto.randomBytes(3).toString("hex")}`);
  const adminGroup = await insertGroup(db, org.id, "admin", "builtin", ["admin", "super_admin"]);
  const defaultGroup = await insertGroup(db, org.id, "default", "builtin", [
    "view_query",
    "execute_query",
  ]);
  let users = 0;
  const addUser = (groupIds: number[]) =>
    insertUser(db, {
      orgId: org.id,
      name: `user ${++users}`,
      email: `user${users}@example.com`,
      passwordHash: null,
      groupIds,
      invitationPending: false,
    });
  const admin = await addUser([adminGroup.id, defaultGroup.id]);
  return {
    database,
    config,
    keys,
    orgId: org.id,
    adminGroupId: adminGroup.id,
    defaultGroupId: defaultGroup.id,
    admin,
    addUser,
    async addGroup(name) {
      return (await insertGroup(db, org.id, name, "regular", ["view_query", "execute_query"])).id;
    },
    async addDataSource(type, options, groupId = defaultGroup.id) {
      const source = await insertDataSource(db, {
        orgId: org.id,
        name: `${type} ${crypto.randomBytes(3).toString("hex")}`,
        type,
        encryptedOptions: writeDataSourceOptions({ keys }, options),
        groupId,
      });
      return source.id;
    },
    addQuery({ dataSourceId, text, userId, schedule = null, archived = false }) {
      return insertQuery(db, org.id, {
        data_source_id: dataSourceId,
        latest_query_data_id: null,
        name: "q",
        description: null,
        query: text,
        query_hash: queryHash(text),
        user_id: userId ?? admin.id,
        last_modified_by_id: null,
        is_archived: archived,
        is_draft: false,
        schedule,
        options: {},
        tags: [],
      });
    },
    storeResult: (query, columns, rows) => storeLatestResult(db, query, columns, rows),
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
