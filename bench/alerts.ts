// 1,000 alerts on one query: evaluation time per alert in the worker, time until every
// notification reached a local sink, and the same with one destination that never answers.
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { createAlertService } from "../packages/server/src/alerts/evaluation";
import { startHttpSink } from "../packages/server/src/alerts/testSupport";
import { deriveKeys } from "../packages/server/src/auth/secretKey";
import { writeDestinationOptions } from "../packages/server/src/destinations/options";
import type { Cell } from "../packages/server/src/runners/types";
import { insertAlert, insertSubscription } from "../packages/server/src/store/alerts";
import { insertDestination } from "../packages/server/src/store/destinations";
import { openTestStore } from "../packages/server/src/testing/metadataStore";
import {
  insertTestQuery,
  insertOwner,
  mailerWithoutServer,
  storeLatestResult,
} from "../packages/server/src/testing/storeRows";
import { isMain, ms, sleep, type Figure } from "./support";

const ALERTS = Number(process.env.BENCH_ALERTS ?? 1000);

async function scenario(hanging: boolean): Promise<{ evalMs: number; deliveredMs: number }> {
  const store = await openTestStore();
  const sink = await startHttpSink();
  sink.answer = (request) => (request.path === "/hang" ? "hang" : 200);
  const db = store.database.db;
  const keys = deriveKeys(crypto.randomBytes(32).toString("hex"));
  const user = await insertOwner(db, store.orgId);
  const query = await insertTestQuery(db, store.orgId, {
    dataSourceId: store.dataSourceId,
    userId: user.id,
    lastModifiedById: user.id,
    name: "Metric",
    text: "SELECT n",
    hash: "bench",
  });
  const destination = async (name: string, path: string) =>
    (
      await insertDestination(db, {
        orgId: store.orgId,
        userId: user.id,
        name,
        type: "webhook",
        encryptedOptions: writeDestinationOptions({ keys }, { url: `${sink.url}${path}` }),
      })
    ).id;
  const hook = await destination("Sink", "/hook");
  const slow = await destination("Never answers", "/hang");
  for (let i = 0; i < ALERTS; i++) {
    const alert = await insertAlert(db, {
      orgId: store.orgId,
      userId: user.id,
      name: `Alert ${i}`,
      queryId: query.id,
      options: { column: "n", op: ">", value: i % 2 === 0 ? 5 : "5", selector: "max" },
      rearm: null,
    });
    const destinationId = hanging && i === 0 ? slow : hook;
    await insertSubscription(db, { alertId: alert.id, userId: user.id, destinationId });
  }
  const rows: Cell[][] = Array.from({ length: 100 }, (_, i) => [i]);
  const result = await storeLatestResult(
    db,
    query,
    [{ name: "n", friendly_name: "n", type: "integer" }],
    rows,
  );

  const alerts = createAlertService({
    db,
    config: { baseUrl: "http://sightline.example", outboundAllowedRanges: ["127.0.0.1/32"] },
    keys,
    mailer: mailerWithoutServer(),
    log: { warn: () => undefined, error: () => undefined },
  });
  const started = performance.now();
  await alerts.afterResult(
    result,
    {
      orgId: store.orgId,
      dataSourceId: store.dataSourceId,
      queryText: "SELECT n",
      queryHash: "bench",
      queryId: query.id,
      userId: null,
      scheduled: true,
      queueName: "scheduled_queries",
    },
    "bench-job",
  );
  const evalMs = performance.now() - started;
  const expected = hanging ? ALERTS - 1 : ALERTS;
  while (sink.requests.filter((r) => r.path === "/hook").length < expected) await sleep(5);
  const deliveredMs = performance.now() - started;
  await sink.close();
  if (!hanging) await alerts.idle();
  await store.close();
  return { evalMs, deliveredMs };
}

export async function alertsBenchmark(): Promise<Figure[]> {
  console.log(`\n# alerts.ts — ${ALERTS} alerts on one query (webhook to a local sink)\n`);
  const all = await scenario(false);
  console.log(
    `evaluated and states stored: ${ms(all.evalMs)} (${(all.evalMs / ALERTS).toFixed(3)} ms per alert)`,
  );
  console.log(`every notification received by the sink: ${ms(all.deliveredMs)}`);
  const stuck = await scenario(true);
  console.log(
    `one destination never answers: the other ${ALERTS - 1} received after ${ms(stuck.deliveredMs)}`,
  );
  const perAlert = all.evalMs / ALERTS;
  return [
    {
      benchmark: "alerts",
      measure: `evaluation per alert, ${ALERTS} alerts on one query (worker time)`,
      value: `${perAlert.toFixed(3)} ms`,
      target: "< 1 ms",
      met: perAlert < 1,
    },
    {
      benchmark: "alerts",
      measure: `result stored → ${ALERTS} notifications at the sink`,
      value: ms(all.deliveredMs),
      target: "",
      met: null,
    },
    {
      benchmark: "alerts",
      measure: `${ALERTS - 1} notifications at the sink while 1 destination never answers`,
      value: ms(stuck.deliveredMs),
      target: "< 5 s (one timeout)",
      met: stuck.deliveredMs < 5000,
    },
  ];
}

if (isMain(import.meta.url)) {
  await alertsBenchmark();
  process.exit(0);
}
