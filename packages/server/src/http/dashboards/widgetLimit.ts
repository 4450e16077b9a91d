// How many widgets one dashboard holds: enough for any dashboard people read, few enough that
// its page, its copy (fork) and its public page stay quick (10,000 froze the page for seconds).
import type { Kysely } from "kysely";
import type { DB } from "../../store/schema";
import { badRequest } from "../errors";

export const MAX_WIDGETS_PER_DASHBOARD = 500;

export const TOO_MANY_WIDGETS_MESSAGE = `A dashboard can hold at most ${MAX_WIDGETS_PER_DASHBOARD} widgets.`;

/** A 400 unless a dashboard of `count` widgets is within the limit. */
export function requireWidgetCount(count: number): void {
  if (count > MAX_WIDGETS_PER_DASHBOARD) throw badRequest(TOO_MANY_WIDGETS_MESSAGE);
}

/** A 400 unless the dashboard has room for one more widget. */
export async function requireRoomForWidget(db: Kysely<DB>, dashboardId: number): Promise<void> {
  const row = await db
    .selectFrom("widgets")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("dashboard_id", "=", dashboardId)
    .executeTakeFirstOrThrow();
  requireWidgetCount(Number(row.n) + 1);
}
