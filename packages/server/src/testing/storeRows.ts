// Rows for tests below the HTTP API (alerts, notifications, benchmarks): a query's owner, the query
// and its latest result, written with the server's own repositories.
import type { Kysely } from "kysely";
import { createMailer, type Mailer } from "../mail";
import { DEFAULT_RESULT_LIMITS } from "../results/limits";
import { writeResult, type ResultMeta } from "../results/resultStore";
import type { Cell, ResultColumn } from "../runners/types";
import { insertQuery, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import { insertUser, type User } from "../store/users";

/** A user with no password and no groups, to own queries, alerts and destinations. */
export function insertOwner(
  db: Kysely<DB>,
  orgId: number,
  name = "Owner",
  email = "owner@example.com",
): Promise<User> {
  return insertUser(db, {
    orgId,
    name,
    email,
    passwordHash: null,
    groupIds: [],
    invitationPending: false,
  });
}

/** A published, unscheduled query of the owner's, with no result yet. */
export function insertOwnedQuery(
  db: Kysely<DB>,
  orgId: number,
  fields: { dataSourceId: number; owner: User; name: string; text: string; hash: string },
): Promise<Query> {
  return insertQuery(db, orgId, {
    data_source_id: fields.dataSourceId,
    latest_query_data_id: null,
    name: fields.name,
    description: null,
    query: fields.text,
    query_hash: fields.hash,
    user_id: fields.owner.id,
    last_modified_by_id: fields.owner.id,
    is_archived: false,
    is_draft: false,
    schedule: null,
    options: {},
    tags: [],
  });
}

/** Writes the rows as a result of the query's text and makes it the query's latest result. */
export async function storeLatestResult(
  db: Kysely<DB>,
  query: Query,
  columns: ResultColumn[],
  rows: Cell[][],
): Promise<ResultMeta> {
  const meta = await writeResult(db, {
    orgId: query.org_id,
    dataSourceId: query.data_source_id!,
    queryHash: query.query_hash,
    query: query.query,
    columns,
    batches: (async function* () {
      yield rows;
    })(),
    startedAt: Date.now(),
    limits: DEFAULT_RESULT_LIMITS,
  });
  await db
    .updateTable("queries")
    .set({ latest_query_data_id: meta.id })
    .where("id", "=", query.id)
    .execute();
  query.latest_query_data_id = meta.id;
  return meta;
}

/** A mailer with no SMTP server and no sender: nothing is e-mailed. */
export function mailerWithoutServer(): Mailer {
  return createMailer({
    server: null,
    port: 25,
    useTls: false,
    username: null,
    password: null,
    defaultSender: null,
  });
}
