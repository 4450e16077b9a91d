// The fairness rules (execution/fairness.ts) held in Redis, so that they hold across every worker
// process and survive a worker's death: a running job holds a lease on one of its data source's
// slots that its worker renews; a dead worker's lease runs out and frees the slot.
import type { Redis } from "ioredis";
import { JobRefusalError } from "./pipeline";
import {
  countsAgainstUser,
  userQueueRefusal,
  type DataSourceLoad,
  type FairnessLimits,
} from "./fairness";
import type { JobData } from "./types";

/** Waiting entries older than this are leftovers (a job lost with its queue), not waiting. */
const STALE_WAITING_MS = 3600_000;

/**
 * Takes a slot of the job's data source if the rules allow it, and moves the job from the
 * waiting sets to the running set. KEYS: running, ad-hoc waiting, scheduled waiting, user
 * waiting. ARGV: job id, now, lease ms, limit, "1" if scheduled, stale-before.
 */
const TAKE_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[6])
local limit = tonumber(ARGV[4])
if limit > 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local busy = redis.call('ZCARD', KEYS[1])
  if ARGV[5] == '1' then busy = busy + redis.call('ZCARD', KEYS[2]) end
  if busy >= limit then return 0 end
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 1
`;

export class RedisFairness {
  constructor(
    private readonly client: Redis,
    private readonly key: (...parts: (string | number)[]) => string,
    readonly limits: FairnessLimits,
    /** How long a running job's slot lasts without its worker renewing it. */
    readonly leaseMs: number,
  ) {}

  private running = (dataSourceId: number) => this.key("ds-running", dataSourceId);
  private waitingKey = (dataSourceId: number, scheduled: boolean) =>
    this.key(scheduled ? "ds-waiting-scheduled" : "ds-waiting-adhoc", dataSourceId);
  private userWaiting = (userId: number | null) => this.key("user-waiting", userId ?? "none");

  /**
   * Refuses (429) a new run of a user who already has the most runs waiting. Entries whose job
   * no longer waits (`stillWaiting` says) are dropped first, so nothing stale counts.
   */
  async assertUserMayQueue(
    data: JobData,
    stillWaiting: (jobId: string) => Promise<boolean>,
  ): Promise<void> {
    if (!countsAgainstUser(data) || this.limits.waitingPerUser <= 0) return;
    const key = this.userWaiting(data.userId);
    let count = await this.client.zcard(key);
    if (count < this.limits.waitingPerUser) return;
    for (const jobId of await this.client.zrange(key, "0", "-1")) {
      if (!(await stillWaiting(jobId))) await this.client.zrem(key, jobId);
    }
    count = await this.client.zcard(key);
    const refusal = userQueueRefusal(count, this.limits);
    if (refusal) throw new JobRefusalError(429, refusal);
  }

  /** Records a job just queued in its data source's and its user's waiting sets. */
  async queued(jobId: string, data: JobData): Promise<void> {
    const now = Date.now();
    const batch = this.client
      .multi()
      .zadd(this.waitingKey(data.dataSourceId, data.scheduled), now, jobId)
      .sadd(this.key("ds-known"), String(data.dataSourceId));
    if (countsAgainstUser(data)) batch.zadd(this.userWaiting(data.userId), now, jobId);
    await batch.exec();
  }

  /** Takes a slot for the job (true), or says it must wait for one (false). */
  async take(jobId: string, data: JobData): Promise<boolean> {
    const now = Date.now();
    const taken = await this.client.eval(
      TAKE_SLOT,
      4,
      this.running(data.dataSourceId),
      this.waitingKey(data.dataSourceId, false),
      this.waitingKey(data.dataSourceId, true),
      this.userWaiting(data.userId),
      jobId,
      now,
      this.leaseMs,
      this.limits.perDataSource,
      data.scheduled ? "1" : "0",
      now - STALE_WAITING_MS,
    );
    return taken === 1;
  }

  /** Whether the job holds one of its data source's slots (it runs, rather than waits). */
  async holds(jobId: string, data: JobData): Promise<boolean> {
    return (await this.client.zscore(this.running(data.dataSourceId), jobId)) !== null;
  }

  /** Keeps a running job's slot while its worker lives. */
  async renew(jobId: string, data: JobData): Promise<void> {
    await this.client.zadd(this.running(data.dataSourceId), "XX", Date.now() + this.leaseMs, jobId);
  }

  /** Frees whatever the job holds or waits in: it finished, failed or was cancelled. */
  async forget(jobId: string, data: JobData): Promise<void> {
    await this.client
      .multi()
      .zrem(this.running(data.dataSourceId), jobId)
      .zrem(this.waitingKey(data.dataSourceId, false), jobId)
      .zrem(this.waitingKey(data.dataSourceId, true), jobId)
      .zrem(this.userWaiting(data.userId), jobId)
      .exec();
  }

  /** Per data source with work: running and waiting jobs. */
  async loads(): Promise<DataSourceLoad[]> {
    const now = Date.now();
    const out: DataSourceLoad[] = [];
    const ids = (await this.client.smembers(this.key("ds-known")))
      .map(Number)
      .sort((a, b) => a - b);
    for (const id of ids) {
      const [running, adHoc, scheduled] = await Promise.all([
        this.client.zcount(this.running(id), now, "+inf"),
        this.client.zcount(this.waitingKey(id, false), now - STALE_WAITING_MS, "+inf"),
        this.client.zcount(this.waitingKey(id, true), now - STALE_WAITING_MS, "+inf"),
      ]);
      if (running + adHoc + scheduled === 0) continue;
      out.push({
        dataSourceId: id,
        running,
        waiting: adHoc + scheduled,
        limit: this.limits.perDataSource,
      });
    }
    return out;
  }
}
