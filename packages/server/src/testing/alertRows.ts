// The rows most alert tests start from, in a test store's organisation: an owner, their query
// "Q" and an alert "A" on it.
import type { AlertOptions } from "@sightline/core";
import { insertAlert } from "../store/alerts";
import type { TestStore } from "./metadataStore";
import { insertOwner, insertTestQuery } from "./storeRows";

/** An owner, their query "Q" (`text`, `hash`) and their alert "A" on it with `options`. */
export async function insertOwnedAlert(
  store: TestStore,
  { text, hash, options }: { text: string; hash: string; options: AlertOptions },
) {
  const db = store.database.db;
  const user = await insertOwner(db, store.orgId);
  const query = await insertTestQuery(db, store.orgId, {
    dataSourceId: store.dataSourceId,
    userId: user.id,
    lastModifiedById: user.id,
    name: "Q",
    text,
    hash,
  });
  const alert = await insertAlert(db, {
    orgId: store.orgId,
    userId: user.id,
    name: "A",
    queryId: query.id,
    options,
    rearm: null,
  });
  return { user, query, alert };
}
