// Fair queues: the rules both queue backends keep so that one slow data source or one eager
// user cannot take every worker.
// - A data source runs at most `perDataSource` queries at once, across all workers.
// - People come before the scheduler: a scheduled refresh takes a data source's slot only if
//   a slot stays free for each ad-hoc run waiting on that data source.
// - A user has at most `waitingPerUser` runs waiting at once; one more is refused (429).
import type { JobData } from "./types";

export interface FairnessLimits {
  /** Queries of one data source running at once, across every worker (0 = no limit). */
  perDataSource: number;
  /** Runs one user may have waiting at once (0 = no limit). Scheduled runs are not counted. */
  waitingPerUser: number;
}

export const DEFAULT_FAIRNESS: FairnessLimits = { perDataSource: 3, waitingPerUser: 10 };

/** Per data source: how many run and wait, for the status pages and metrics. */
export interface DataSourceLoad {
  dataSourceId: number;
  running: number;
  waiting: number;
  /** The per-data-source limit in force (0 = none). */
  limit: number;
}

/** Whether the user's runs count against the waiting limit (people's ad-hoc runs only). */
export const countsAgainstUser = (data: JobData): data is JobData & { userId: number } =>
  data.userId !== null && !data.scheduled;

export function tooManyWaitingMessage(limit: number): string {
  return `You already have ${limit} queries waiting to run. Wait for one of them to finish, or cancel one, before running another.`;
}

/** Why a user with `waiting` runs waiting may not queue another, or null when they may. */
export function userQueueRefusal(waiting: number, limits: FairnessLimits): string | null {
  if (limits.waitingPerUser > 0 && waiting >= limits.waitingPerUser) {
    return tooManyWaitingMessage(limits.waitingPerUser);
  }
  return null;
}

/**
 * Whether a job may start on its data source now, given what runs there and how many people's
 * runs wait for it (the job itself not counted).
 */
export function mayStart(
  job: Pick<JobData, "scheduled">,
  load: { running: number; adHocWaiting: number },
  limits: FairnessLimits,
): boolean {
  if (limits.perDataSource <= 0) return true;
  if (!job.scheduled) return load.running < limits.perDataSource;
  return load.running + load.adHocWaiting < limits.perDataSource;
}
