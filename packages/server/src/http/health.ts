import type { FastifyInstance, FastifyReply } from "fastify";
import { sql } from "kysely";
import type { Redis } from "ioredis";
import type { AppContext } from "../context";
import { metricsRoute } from "../metrics/endpoint";
import { registerHttpMetrics } from "../metrics/http";
import { registerStoreMetrics } from "../metrics/store";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route reads no session: request authentication (auth/requestAuth.ts) skips it. */
    withoutSession?: boolean;
  }
}

/** A probe waits at most this long for each dependency: load balancers time out in seconds. */
const CHECK_TIMEOUT_MS = 3_000;

export const METADATA_UNREACHABLE = "The metadata database is not reachable.";
export const REDIS_UNREACHABLE = "Redis is not reachable.";

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await withTimeout(check());
    return true;
  } catch {
    return false;
  }
}

/** Probes answer fresh, never from a cache between the prober and the server. */
function fresh(reply: FastifyReply): FastifyReply {
  return reply.header("Cache-Control", "no-store");
}

/**
 * /healthz (the process answers), /readyz (the metadata database and, in scaled mode, Redis
 * answer) and /metrics. None of them reads a session or touches the store for one (withoutSession),
 * so a probe says what it checks and nothing else.
 */
export async function registerOperations(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A hook on the root app: every route of every scope is counted.
  const httpRegistry = registerHttpMetrics(app, ctx.execution);
  registerStoreMetrics(httpRegistry, ctx.database.db);

  // Its own connection: the queue's clients retry without end, a probe must fail fast.
  let redis: Redis | null = null;
  async function pingRedis(redisUrl: string): Promise<unknown> {
    if (!redis) {
      const { Redis } = await import("ioredis");
      redis = new Redis(redisUrl, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        connectTimeout: CHECK_TIMEOUT_MS,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      });
      // Errors surface as a failed ping; without a listener ioredis prints each one.
      redis.on("error", () => undefined);
    }
    return redis.ping();
  }
  app.addHook("onClose", async () => {
    redis?.disconnect();
  });

  await app.register(async (scope) => {
    const probe = {
      schema: { tags: ["operations"], hide: true },
      config: { withoutSession: true },
    };

    scope.get("/healthz", probe, async (_request, reply) => fresh(reply).send({ status: "ok" }));

    scope.get("/readyz", probe, async (_request, reply) => {
      const redisUrl = ctx.config.redisUrl;
      const [metadata, redisUp] = await Promise.all([
        reachable(() => sql`SELECT 1`.execute(ctx.database.db)),
        redisUrl ? reachable(() => pingRedis(redisUrl)) : Promise.resolve(true),
      ]);
      const problems = [
        ...(metadata ? [] : [METADATA_UNREACHABLE]),
        ...(redisUp ? [] : [REDIS_UNREACHABLE]),
      ];
      if (problems.length > 0)
        return fresh(reply)
          .code(503)
          .send({ message: problems.join(" ") });
      return fresh(reply).send({ status: "ok" });
    });

    metricsRoute(scope, ctx.config, httpRegistry);
  });
}
