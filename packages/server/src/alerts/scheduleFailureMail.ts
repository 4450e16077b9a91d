import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { JobData } from "../execution/types";
import type { Mailer } from "../mail";
import { orgSetting } from "../services/orgSettings";
import { findOrgById } from "../store/organizations";
import { findQuery } from "../store/queries";
import type { DB } from "../store/schema";
import { findUserById } from "../store/users";

export interface ScheduleFailureMailDeps {
  db: Kysely<DB>;
  config: Pick<Config, "baseUrl">;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, "warn">;
}

/**
 * Tells a scheduled query's owner that it failed, when the organisation turned on
 * `send_email_on_failed_scheduled_queries` (Redash's behaviour). Once per run of failures: only
 * the first failure after a success (schedule_failures just became 1) sends, so a query failing
 * every minute does not flood the owner.
 */
export async function mailScheduleFailure(
  deps: ScheduleFailureMailDeps,
  job: JobData,
  message: string,
): Promise<void> {
  if (job.queryId === null || !deps.mailer.configured) return;
  const query = await findQuery(deps.db, job.orgId, job.queryId);
  if (!query || query.schedule_failures !== 1) return;
  const org = await findOrgById(deps.db, job.orgId);
  if (!org || !orgSetting(org, "send_email_on_failed_scheduled_queries")) return;
  const owner = await findUserById(deps.db, job.orgId, query.user_id);
  if (!owner || owner.disabled_at !== null) return;
  const link = `${deps.config.baseUrl.replace(/\/+$/, "")}/queries/${query.id}`;
  await deps.mailer.send({
    to: owner.email,
    subject: "Sightline failed to execute 1 of your scheduled queries",
    text:
      `Hi ${owner.name},\n\nYour scheduled query "${query.name}" failed:\n\n${message}\n\n${link}\n\n` +
      "You get this e-mail once when a scheduled query starts failing; the next one comes only " +
      "after it has succeeded again.",
  });
}
