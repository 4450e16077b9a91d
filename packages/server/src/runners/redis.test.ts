// The Redis runner against the machine's Redis, in a database number and key prefix of its own
// (deleted afterwards), with an ACL user made for the test and removed after it.
import net, { type AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { randomName, redisAvailable, TEST_REDIS_URL } from "../testing/services";
import { redisRunner } from "./redis";
import { parseRedisCommand, splitCommandLine } from "./redisCommands";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";

const DB = 11;
const prefix = randomName("sl_redis_test");
const user = `${prefix}_user`;
const password = "s3cret pass";
const ctx = testContext();
const address = new URL(TEST_REDIS_URL);
const options = () => ({
  host: address.hostname,
  port: Number(address.port || 6379),
  db: DB,
});
let available = false;
const k = (name: string) => `${prefix}:${name}`;

async function admin(): Promise<Redis> {
  return new Redis(`${TEST_REDIS_URL.replace(/\/\d*$/, "")}/${DB}`);
}

beforeAll(async () => {
  available = await redisAvailable();
  if (!available) return;
  const client = await admin();
  try {
    await client.set(k("greeting"), "hello wörld");
    await client.hset(k("user:1"), { name: "Ada", role: "admin" });
    await client.rpush(k("queue"), "a", "b", "c");
    await client.sadd(k("tags"), "x", "y");
    await client.zadd(k("board"), 10, "ann", 2.5, "bob");
    await client.xadd(k("events"), "1700000000000-0", "kind", "login", "user", "ann");
    await client.xadd(k("events"), "1700000000500-0", "kind", "logout", "ip", "10.0.0.1");
    await client.call(
      "ACL",
      "SETUSER",
      user,
      "on",
      `>${password}`,
      `~${prefix}:*`,
      "+@read",
      "+@connection",
      "+select",
      "+info",
      "+scan",
    );
  } finally {
    client.disconnect();
  }
}, 30_000);

afterAll(async () => {
  if (!available) return;
  const client = await admin();
  try {
    await client.call("ACL", "DELUSER", user);
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
});

describe("redis commands", () => {
  it("splits command lines as redis-cli does", () => {
    expect(splitCommandLine(`GET "a b\\n" 'it\\'s' plain "\\x41"`)).toEqual([
      "GET",
      "a b\n",
      "it's",
      "plain",
      "A",
    ]);
    expect(() => splitCommandLine(`GET "open`)).toThrow(/Unbalanced quotes/);
  });

  it("refuses anything but the read-only commands, clearly", () => {
    expect(() => parseRedisCommand("DEL key")).toThrow(
      "Only these read-only commands run on a Redis data source: GET, MGET, HGETALL, LRANGE, SMEMBERS, ZRANGE, XRANGE, SCAN, INFO (not DEL).",
    );
    expect(() => parseRedisCommand("EVAL 'return 1' 0")).toThrow(/not EVAL/);
    expect(() => parseRedisCommand("GET a\nGET b")).toThrow(/one command/);
    expect(() => parseRedisCommand("LRANGE key 0")).toThrow(/LRANGE key start stop/);
    expect(parseRedisCommand("# the list\nlrange key 0 -1")).toEqual({
      name: "LRANGE",
      args: ["key", "0", "-1"],
    });
  });
});

describe("redis runner", () => {
  const skip = () => !available;
  const run = (text: string) => runAll(redisRunner.run(options(), text, ctx));

  it("answers each command as a typed table", async (t) => {
    if (skip()) return t.skip();
    const get = await run(`GET ${k("greeting")}`);
    expect(get.columns.map((c) => [c.name, c.type])).toEqual([
      ["key", "string"],
      ["value", "string"],
    ]);
    expect(get.rows).toEqual([[k("greeting"), "hello wörld"]]);
    expect((await run(`MGET ${k("greeting")} ${k("none")}`)).rows).toEqual([
      [k("greeting"), "hello wörld"],
      [k("none"), null],
    ]);
    expect((await run(`HGETALL ${k("user:1")}`)).rows).toEqual([
      ["name", "Ada"],
      ["role", "admin"],
    ]);
    const list = await run(`LRANGE ${k("queue")} 1 -1`);
    expect(list.columns.map((c) => c.type)).toEqual(["integer", "string"]);
    expect(list.rows).toEqual([
      [1, "b"],
      [2, "c"],
    ]);
    expect((await run(`SMEMBERS ${k("tags")}`)).rows).toEqual([["x"], ["y"]]);
    const board = await run(`ZRANGE ${k("board")} 0 -1 WITHSCORES`);
    expect(board.columns.map((c) => [c.name, c.type])).toEqual([
      ["member", "string"],
      ["score", "float"],
    ]);
    expect(board.rows).toEqual([
      ["bob", 2.5],
      ["ann", 10],
    ]);
  });

  it("gives a stream one column per field across all entries, time in UTC", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await run(`XRANGE ${k("events")} - +`);
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["id", "string"],
      ["time", "datetime"],
      ["kind", "string"],
      ["user", "string"],
      ["ip", "string"],
    ]);
    expect(rows).toEqual([
      ["1700000000000-0", "2023-11-14T22:13:20Z", "login", "ann", null],
      ["1700000000500-0", "2023-11-14T22:13:20.500Z", "logout", null, "10.0.0.1"],
    ]);
  });

  it("pages SCAN up to the cap, and reads INFO", async (t) => {
    if (skip()) return t.skip();
    const all = await run(`SCAN 0 MATCH ${prefix}:* COUNT 2`);
    expect(all.rows.map(([key]) => key).sort()).toEqual(
      ["board", "events", "greeting", "queue", "tags", "user:1"].map(k),
    );
    const capped = await runAll(
      redisRunner.run({ ...options(), scan_cap: 2 }, `SCAN 0 MATCH ${prefix}:*`, ctx),
    );
    expect(capped.rows).toHaveLength(2);
    const info = await run("INFO server");
    expect(info.rows).toContainEqual(["Server", "tcp_port", String(options().port)]);
  });

  it("runs as an ACL user and says what failed in Redis's words", async (t) => {
    if (skip()) return t.skip();
    const asUser = { ...options(), user, password };
    await redisRunner.test(asUser, ctx);
    expect((await runAll(redisRunner.run(asUser, `GET ${k("greeting")}`, ctx))).rows).toHaveLength(
      1,
    );
    await expect(runAll(redisRunner.run(asUser, "GET elsewhere", ctx))).rejects.toThrow(
      /^Redis: NOPERM/,
    );
    await expect(redisRunner.test({ ...asUser, password: "wrong" }, ctx)).rejects.toThrow(
      /^Redis: WRONGPASS/,
    );
    await expect(redisRunner.test({ ...options(), db: 99 }, ctx)).rejects.toThrow(
      /DB index is out of range/,
    );
    await expect(redisRunner.test({ port: 1 }, ctx)).rejects.toThrow(
      /^Could not reach Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });

  it("refuses the database of Sightline's own queue, by any name", async () => {
    const queue = { ...ctx, queueRedisUrl: "redis://localhost:6379/3" };
    const refused = /Redis database 3 at 127\.0\.0\.1:6379 holds Sightline's own job queue/;
    const same = { host: "127.0.0.1", port: 6379, db: 3 };
    await expect(redisRunner.checkOptions!(same, queue)).rejects.toThrow(refused);
    await expect(redisRunner.run(same, "INFO", queue)).rejects.toThrow(refused);
    await expect(redisRunner.test(same, queue)).rejects.toThrow(refused);
    await expect(redisRunner.getSchema(same, queue)).rejects.toThrow(refused);
    await redisRunner.checkOptions!({ ...same, db: 4 }, queue);
    await redisRunner.checkOptions!({ ...same, port: 6380 }, queue);
  });

  it("reads 100,000 list items in batches", async (t) => {
    if (skip()) return t.skip();
    const client = await admin();
    try {
      const items = Array.from({ length: 100_000 }, (_, i) => `item ${i}`);
      for (let i = 0; i < items.length; i += 10_000)
        await client.rpush(k("big"), ...items.slice(i, i + 10_000));
    } finally {
      client.disconnect();
    }
    const { rows, batches } = await run(`LRANGE ${k("big")} 0 -1`);
    expect(rows).toHaveLength(100_000);
    expect(rows[99_999]).toEqual([99_999, "item 99999"]);
    expect(batches).toBeGreaterThan(1);
  });

  it("stops on cancel and on timeout", async (t) => {
    if (skip()) return t.skip();
    // A server that accepts and never answers stands for a slow command.
    const sockets: net.Socket[] = [];
    const hung = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const slow = { host: "127.0.0.1", port: (hung.address() as AddressInfo).port };
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      hung.close();
    });
    const cancelled = await timeRejection(
      runAll(redisRunner.run(slow, "GET x", { ...ctx, signal: abortAfter(300) })),
    );
    expect(cancelled.error.message).toBe("Query cancelled by user.");
    const timedOut = await timeRejection(
      runAll(redisRunner.run(slow, "GET x", { ...ctx, timeoutMs: 500 })),
    );
    expect(timedOut.error.message).toMatch(/time limit of 0.5 second/);
    expect(timedOut.ms).toBeLessThan(5000);
  });

  it("lists sampled keys with their type's columns", async (t) => {
    if (skip()) return t.skip();
    const schema = await redisRunner.getSchema(
      { ...options(), user, password },
      { ...ctx, timeoutMs: 30_000 },
    );
    expect(schema.find((table) => table.name === k("board"))?.columns).toEqual([
      { name: "member", type: "zset (ZRANGE … WITHSCORES)" },
      { name: "score", type: "float" },
    ]);
    expect(schema.find((table) => table.name === k("greeting"))?.columns).toEqual([
      { name: "value", type: "string (GET)" },
    ]);
  });
});
