import crypto from "node:crypto";
import { Redis } from "ioredis";
import type { LeaderLock } from "./scheduler";

/** Scaled mode: a Redis key with a TTL, renewed by its holder on every pass. */
export function redisLeader(redisUrl: string, prefix: string, ttlMs = 90_000): LeaderLock {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on("error", () => undefined);
  const key = `${prefix}:sightline:scheduler-lock`;
  const token = crypto.randomUUID();
  return {
    async acquire() {
      try {
        if (client.status === "wait") await client.connect();
        if ((await client.set(key, token, "PX", ttlMs, "NX")) === "OK") return true;
        // Renew only our own lock.
        const renewed = await client.eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end",
          1,
          key,
          token,
          String(ttlMs),
        );
        return renewed === 1;
      } catch {
        return false;
      }
    },
    async release() {
      await client
        .eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
          1,
          key,
          token,
        )
        .catch(() => undefined);
      client.disconnect();
    },
  };
}
