import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../store/database";
import { insertDataSource } from "../store/dataSources";
import { migrate } from "../store/migrate";
import { insertOrg } from "../store/organizations";
import { insertGroup } from "../store/users";

export interface TestStore {
  database: Database;
  /** The SQLite file, for opening a second store on it. */
  file: string;
  orgId: number;
  dataSourceId: number;
  close(): Promise<void>;
}

/**
 * A migrated SQLite metadata store in a temp folder, holding one organisation and one (sqlite)
 * data source: for tests of the store layer below the HTTP API.
 */
export async function openTestStore(): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-store-"));
  const file = path.join(dir, "meta.db");
  const database = await openDatabase(file);
  await migrate(database);
  const { db } = database;
  const { id: orgId } = await insertOrg(db, "o", "o");
  const group = await insertGroup(db, orgId, "default", "builtin", []);
  const { id: dataSourceId } = await insertDataSource(db, {
    orgId,
    name: "d",
    type: "sqlite",
    encryptedOptions: "",
    groupId: group.id,
  });
  return {
    database,
    file,
    orgId,
    dataSourceId,
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
