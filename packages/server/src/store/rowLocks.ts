// A write lock on one row for the rest of a transaction, so that a check followed by an insert
// (is there one already? if not, make it) runs one at a time for that row across every server
// sharing the metadata store: a double click or two tabs can reach two servers behind a load
// balancer. PostgreSQL locks the row (a later locker waits for the commit and then sees what was
// written); SQLite has one writer at a time, and one process holds its connection per transaction.
import { sql, type Transaction } from "kysely";
import type { DB } from "./schema";

/** Tables whose rows are locked: each has an `updated_at`, rewritten with its own value. */
type LockedTable = "users" | "report_subscriptions";

export async function lockRow(tx: Transaction<DB>, table: LockedTable, id: number): Promise<void> {
  // A write of a column that is no key: PostgreSQL's FOR NO KEY UPDATE lock, which rows that
  // reference this one (inserted by other transactions meanwhile) do not wait for.
  await sql`UPDATE ${sql.table(table)} SET updated_at = updated_at WHERE id = ${id}`.execute(tx);
}
