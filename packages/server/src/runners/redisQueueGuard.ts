// Sightline's own Redis (its job queue in scaled mode) holds jobs with query texts and parameters:
// no Redis data source may read that database, whatever name or address it is given by.
import { lookup } from "node:dns/promises";
import net from "node:net";
import { DataSourceRefusedError } from "./types";

interface RedisAddress {
  host: string;
  port: number;
  db: number;
}

/** The addresses a host name stands for (loopback names all count as one). */
async function addressesOf(host: string): Promise<Set<string>> {
  const name = host.replace(/^\[|\]$/g, "");
  const loopback = (address: string) =>
    address === "::1" || address.startsWith("127.") || address === "::ffff:127.0.0.1";
  let found: string[];
  if (net.isIP(name)) found = [name];
  else {
    try {
      found = (await lookup(name, { all: true })).map((entry) => entry.address);
    } catch {
      // A name that does not resolve reaches nothing; compared as written.
      found = [name.toLowerCase()];
    }
  }
  return new Set(found.map((address) => (loopback(address) ? "loopback" : address)));
}

function queueAddress(url: string): RedisAddress | null {
  try {
    const parsed = new URL(url);
    const db = Number(parsed.pathname.replace(/^\//, "") || "0");
    return {
      host: parsed.hostname || "127.0.0.1",
      port: Number(parsed.port || 6379),
      db: Number.isInteger(db) ? db : 0,
    };
  } catch {
    return null;
  }
}

/** Throws when `target` is the database of Sightline's queue Redis. */
export async function assertNotQueueRedis(
  target: RedisAddress,
  queueRedisUrl: string | null | undefined,
): Promise<void> {
  if (!queueRedisUrl) return;
  const queue = queueAddress(queueRedisUrl);
  if (!queue || queue.port !== target.port || queue.db !== target.db) return;
  const [mine, theirs] = await Promise.all([addressesOf(queue.host), addressesOf(target.host)]);
  if ([...theirs].some((address) => mine.has(address))) {
    throw new DataSourceRefusedError(
      `Redis database ${target.db} at ${target.host}:${target.port} holds Sightline's own job queue; it cannot be a data source. Use another database number or server.`,
    );
  }
}
