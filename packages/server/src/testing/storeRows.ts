// Rows written straight into a metadata store, for tests (and benchmarks) that need objects the API
// would not make as they need them: owners without passwords, queries, results, data sources.
import type { Kysely } from "kysely";
import { createMailer, type Mailer } from "../mail";
import { DEFAULT_RESULT_LIMITS } from "../results/limits";
import { writeResult, type ResultMeta } from "../results/resultStore";
import type { Cell, ResultColumn } from "../runners/types";
import { insertDashboard, type Dashboard } from "../store/dashboards";
import { insertDataSourceInGroups } from "../store/dataSources";
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

/** A data source row linked to the given groups (with none, only admins reach it). */
export async function insertDataSourceRow(
  db: Kysely<DB>,
  orgId: number,
  fields: { name: string; type: string; encryptedOptions: string; groupIds: number[] },
): Promise<number> {
  const { groupIds, ...row } = fields;
  return (await insertDataSourceInGroups(db, { orgId, ...row }, groupIds)).id;
}

/** A query of the user's, with no result yet: published and unscheduled unless told otherwise. */
export function insertTestQuery(
  db: Kysely<DB>,
  orgId: number,
  fields: {
    dataSourceId: number | null;
    userId: number;
    name: string;
    text: string;
    hash: string;
    lastModifiedById?: number | null;
    archived?: boolean;
    draft?: boolean;
  },
): Promise<Query> {
  return insertQuery(db, orgId, {
    data_source_id: fields.dataSourceId,
    latest_query_data_id: null,
    name: fields.name,
    description: null,
    query: fields.text,
    query_hash: fields.hash,
    user_id: fields.userId,
    last_modified_by_id: fields.lastModifiedById ?? null,
    is_archived: fields.archived ?? false,
    is_draft: fields.draft ?? false,
    schedule: null,
    options: {},
    tags: [],
  });
}

/** A published dashboard of the user's with no widgets (archived when told). */
export function insertTestDashboard(
  db: Kysely<DB>,
  orgId: number,
  fields: { name: string; userId: number; slug?: string; archived?: boolean },
): Promise<Dashboard> {
  return insertDashboard(
    db,
    orgId,
    {
      name: fields.name,
      user_id: fields.userId,
      layout: [],
      dashboard_filters_enabled: false,
      is_archived: fields.archived ?? false,
      is_draft: false,
      tags: [],
      options: {},
    },
    fields.slug,
  );
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
