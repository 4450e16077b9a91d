import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { now, parseJson, toJson } from "../store/values";

/** Small JSON values in the server_state table (scheduler status, last scheduled runs). */
export async function readState<T>(db: Kysely<DB>, key: string, fallback: T): Promise<T> {
  const row = await db
    .selectFrom("server_state")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirst();
  return parseJson<T>(row?.value, fallback);
}

export async function writeState(db: Kysely<DB>, key: string, value: unknown): Promise<void> {
  const ts = now();
  await db
    .insertInto("server_state")
    .values({ key, value: toJson(value), updated_at: ts })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: toJson(value), updated_at: ts }))
    .execute();
}

export const SCHEDULER_STATE_KEY = "scheduler";
export const SCHEDULER_LAST_RUNS_KEY = "scheduler:last_runs";

export interface SchedulerState {
  started_at: number;
  last_refresh_at: number | null;
  outdated_queries_count: number;
  query_ids: number[];
}
