// The Prometheus runner against a real server (Debian's prometheus with fixed data, started by
// the test) and the query forms it reads.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PROMETHEUS_T0,
  startTestPrometheus,
  type TestPrometheus,
} from "../testing/prometheusServer";
import { prometheusRunner } from "./prometheus";
import { parsePromQuery } from "./prometheusQuery";
import { abortAfter, runAll, testContext, timeRejection, withHttpServer } from "./testSupport";

let server: TestPrometheus | null = null;
const ctx = testContext();
const options = () => ({ url: server!.url, username: server!.user, password: server!.password });
const T0 = PROMETHEUS_T0;

beforeAll(async () => {
  server = await startTestPrometheus();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("prometheus query forms", () => {
  const now = 1_800_000_000;
  it("reads PromQL, Redash's query string and the YAML form", () => {
    expect(parsePromQuery("rate(x[5m]) + 1", now)).toEqual({
      kind: "instant",
      query: "rate(x[5m]) + 1",
      time: null,
    });
    expect(parsePromQuery("query=up&start=2018-01-20T00:00:00.000Z&end=now&step=60s", now)).toEqual(
      { kind: "range", query: "up", start: 1516406400, end: now, step: "60s" },
    );
    expect(parsePromQuery("up&start=1516406400&step=30", now)).toMatchObject({
      kind: "range",
      start: 1516406400,
      end: now,
      step: "30",
    });
    expect(parsePromQuery("query: sum(up) by (job)\nstart: -6h\nstep: 5m", now)).toEqual({
      kind: "range",
      query: "sum(up) by (job)",
      start: now - 6 * 3600,
      end: now,
      step: "5m",
    });
    expect(parsePromQuery("query: up\ntime: 2024-01-02 03:04:05", now)).toEqual({
      kind: "instant",
      query: "up",
      time: Date.UTC(2024, 0, 2, 3, 4, 5) / 1000,
    });
    expect(parsePromQuery("query: up\nstep: 1m", now)).toMatchObject({ start: now - 3600 });
  });

  it("says what is wrong with a form", () => {
    expect(() => parsePromQuery("  ")).toThrow(/Query is empty/);
    expect(() => parsePromQuery("query: up\nstep: often")).toThrow(/not a duration/);
    expect(() => parsePromQuery("query: up\nstart: yesterday\nstep: 1m")).toThrow(
      /start time "yesterday" is not a time/,
    );
    expect(() => parsePromQuery("query: up\nfrom: -1h")).toThrow(/Unknown key "from"/);
    expect(() => parsePromQuery("query=up&start=-1h")).toThrow(/needs a step/);
  });
});

describe("prometheus runner", () => {
  const skip = () => !server;

  it("runs an instant query: one column per label of every series, value a number", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      prometheusRunner.run(options(), `query=sl_requests_total&time=${T0 + 60}`, ctx),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["timestamp", "datetime"],
      ["value", "float"],
      ["__name__", "string"],
      ["code", "string"],
      ["job", "string"],
      ["instance", "string"],
    ]);
    expect(rows).toEqual([
      ["2023-11-14T22:14:20Z", 20, "sl_requests_total", "200", "api", null],
      ["2023-11-14T22:14:20Z", 3, "sl_requests_total", "500", "api", "b:9100"],
    ]);
  });

  it("runs range queries in both forms, NaN as null", async (t) => {
    if (skip()) return t.skip();
    const redash = await runAll(
      prometheusRunner.run(
        options(),
        `query=sl_temperature&start=${T0}&end=${T0 + 60}&step=60s`,
        ctx,
      ),
    );
    const yaml = await runAll(
      prometheusRunner.run(
        options(),
        `query: sl_temperature\nstart: 2023-11-14T22:13:20Z\nend: ${T0 + 60}\nstep: 1m`,
        ctx,
      ),
    );
    expect(yaml).toEqual(redash);
    expect(redash.columns.map((c) => c.name)).toEqual(["timestamp", "value", "__name__", "room"]);
    expect(redash.rows).toEqual(
      expect.arrayContaining([
        ["2023-11-14T22:13:20Z", 21.5, "sl_temperature", "kitchen"],
        ["2023-11-14T22:14:20Z", 22.25, "sl_temperature", "kitchen"],
        ["2023-11-14T22:14:20Z", null, "sl_temperature", "hall"],
      ]),
    );
  });

  it("answers an empty result with an empty table, and scalars as one row", async (t) => {
    if (skip()) return t.skip();
    const empty = await runAll(prometheusRunner.run(options(), "sl_no_such_metric", ctx));
    expect(empty.columns.map((c) => c.name)).toEqual(["timestamp", "value"]);
    expect(empty.rows).toEqual([]);
    const scalar = await runAll(prometheusRunner.run(options(), `query=1.5&time=${T0}`, ctx));
    expect(scalar.rows).toEqual([["2023-11-14T22:13:20Z", 1.5]]);
  });

  it("reads 10,000 samples in batches", async (t) => {
    if (skip()) return t.skip();
    const { rows, batches } = await runAll(
      prometheusRunner.run(
        options(),
        `query: sl_wide\nstart: ${T0}\nend: ${T0 + 999 * 60}\nstep: 60s`,
        ctx,
      ),
    );
    expect(rows).toHaveLength(10_000);
    expect(batches).toBeGreaterThan(1);
  });

  it("says what failed: PromQL errors, credentials, unreachable host", async (t) => {
    if (skip()) return t.skip();
    await expect(runAll(prometheusRunner.run(options(), "sum(", ctx))).rejects.toThrow(
      /^Prometheus: .*parse error.*\(bad_data\)$/,
    );
    await prometheusRunner.test(options(), ctx);
    await expect(prometheusRunner.test({ ...options(), password: "wrong" }, ctx)).rejects.toThrow(
      /refused the credentials \(HTTP 401/,
    );
    await expect(prometheusRunner.test({ url: "http://127.0.0.1:1" }, ctx)).rejects.toThrow(
      /Could not reach Prometheus at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });

  it("stops on cancel and on timeout", async () => {
    // A server that never answers stands for a slow query.
    await withHttpServer(null, async (port) => {
      const url = `http://127.0.0.1:${port}`;
      const cancelled = await timeRejection(
        runAll(prometheusRunner.run({ url }, "up", { ...ctx, signal: abortAfter(300) })),
      );
      expect(cancelled.error.message).toBe("Query cancelled by user.");
      const timedOut = await timeRejection(
        runAll(prometheusRunner.run({ url }, "up", { ...ctx, timeoutMs: 500 })),
      );
      expect(timedOut.error.message).toMatch(/time limit of 0.5 second/);
      expect(timedOut.ms).toBeLessThan(5000);
      await expect(
        prometheusRunner.getSchema({ url }, { ...ctx, timeoutMs: 1500 }),
      ).rejects.toThrow(/Timed out after 1.5 s while reading the metric names/);
    });
  });

  it("sends a bearer token in the header, never credentials in the URL", async () => {
    const seen: { url: string; authorization: string }[] = [];
    const handler: http.RequestListener = (request, response) => {
      seen.push({ url: request.url ?? "", authorization: request.headers.authorization ?? "" });
      request.resume();
      response.setHeader("content-type", "application/json");
      response.end('{"status":"success","data":{"resultType":"vector","result":[]}}');
    };
    await withHttpServer(handler, async (port, fake) => {
      let body = "";
      fake.prependListener("request", (request) => {
        request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      });
      await runAll(
        prometheusRunner.run({ url: `http://127.0.0.1:${port}/prom`, token: "tok" }, "up", {
          ...ctx,
          timeoutMs: 30_000,
        }),
      );
      expect(new URLSearchParams(body).get("timeout")).toBe("31s");
      await runAll(
        prometheusRunner.run({ url: `http://me:pa%20ss@127.0.0.1:${port}/` }, "up", ctx),
      );
      expect(seen[0]).toEqual({ url: "/prom/api/v1/query", authorization: "Bearer tok" });
      expect(seen[1].url).toBe("/api/v1/query");
      expect(seen[1].authorization).toBe(`Basic ${Buffer.from("me:pa ss").toString("base64")}`);
    });
  });

  it("lists metric names with the labels of all their series", async (t) => {
    if (skip()) return t.skip();
    const schema = await prometheusRunner.getSchema(options(), { ...ctx, timeoutMs: 30_000 });
    expect(schema.find((table) => table.name === "sl_requests_total")).toEqual({
      name: "sl_requests_total",
      columns: [
        { name: "code", type: "label" },
        { name: "instance", type: "label" },
        { name: "job", type: "label" },
      ],
    });
    expect(schema.map((table) => table.name)).toEqual([
      "sl_requests_total",
      "sl_temperature",
      "sl_wide",
    ]);
  });
});
