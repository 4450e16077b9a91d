// How many of the objects the home page counts are setup's Demo objects (the demo queries and
// the Demo dashboard, still named and tagged as setup made them), so the welcome steps "Create
// your first Query/Dashboard" wait for the user's own. A renamed or re-tagged demo object is the
// user's work and counts.
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { DEMO_DASHBOARD_NAME } from "./demoDashboard";
import { DEMO_QUERY_NAMES } from "./demoQueries";
/** Tags are stored as JSON text: the demo tag as it appears there. */
const DEMO_TAG_PATTERN = '%"demo"%';

export interface SetupDemoCounters {
  queries: number;
  dashboards: number;
}

/** Counted as `objectCounters` counts (same visibility), only setup's Demo objects. */
export async function setupDemoCounters(
  db: Kysely<DB>,
  orgId: number,
  groupIds: number[],
): Promise<SetupDemoCounters> {
  const groups = groupIds.length > 0 ? groupIds : [-1];
  const linkedSources = db
    .selectFrom("data_source_groups")
    .select("data_source_id")
    .where("group_id", "in", groups);
  const queries = await db
    .selectFrom("queries")
    .where("org_id", "=", orgId)
    .where("is_archived", "=", false)
    .where("data_source_id", "in", linkedSources)
    .where("name", "in", DEMO_QUERY_NAMES)
    .where("tags", "like", DEMO_TAG_PATTERN)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const dashboards = await db
    .selectFrom("dashboards")
    .where("org_id", "=", orgId)
    .where("is_archived", "=", false)
    .where("name", "=", DEMO_DASHBOARD_NAME)
    .where("tags", "like", DEMO_TAG_PATTERN)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return { queries: Number(queries.n), dashboards: Number(dashboards.n) };
}
