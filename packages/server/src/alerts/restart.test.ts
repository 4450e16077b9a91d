import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveKeys } from "../auth/secretKey";
import { insertOwnedAlert } from "../testing/alertRows";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { mailerWithoutServer, storeLatestResult } from "../testing/storeRows";
import { createAlertService } from "./evaluation";
import type { AlertNotice, Notifier } from "./notifications";

/**
 * A worker stopped while notifications were on their way: the new state was stored first, so the
 * next worker neither finds the alert stuck nor sends the same change again.
 */
describe("alert evaluation across a worker restart", () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore();
  });

  afterAll(async () => {
    await store?.close();
  });

  it("stores the change before handing it over, and does not send it twice", async () => {
    const db = store.database.db;
    const { query, alert } = await insertOwnedAlert(store, {
      text: "SELECT n",
      hash: "restart",
      options: { column: "n", op: ">", value: 5 },
    });
    const result = await storeLatestResult(
      db,
      query,
      [{ name: "n", friendly_name: "n", type: "integer" }],
      [[10]],
    );
    const job = {
      orgId: store.orgId,
      dataSourceId: store.dataSourceId,
      queryText: "SELECT n",
      queryHash: "restart",
      queryId: query.id,
      userId: null,
      scheduled: true,
      queueName: "scheduled_queries",
    };

    const deps = {
      db,
      config: { baseUrl: "", outboundAllowedRanges: [] },
      keys: deriveKeys(crypto.randomBytes(32).toString("hex")),
      mailer: mailerWithoutServer(),
      log: { warn: () => undefined, error: () => undefined },
    };
    const handedOver: AlertNotice[][] = [];
    // A notifier that never sends: the worker is stopped before anything leaves.
    const recorder = (): Notifier => ({
      dispatch: (notices) => void handedOver.push(notices),
      idle: async () => undefined,
    });

    // The first worker hands the change over and stops before anything is sent.
    await createAlertService(deps, recorder()).afterResult(result, job, "job-1");
    expect(handedOver).toHaveLength(1);
    expect(handedOver[0]!.map((n) => [n.alert.id, n.newState])).toEqual([[alert.id, "triggered"]]);
    const stored = await db
      .selectFrom("alerts")
      .selectAll()
      .where("id", "=", alert.id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe("triggered");
    expect(stored.last_triggered_at).not.toBeNull();

    // The restarted worker evaluates the same result again: nothing to send.
    await createAlertService(deps, recorder()).afterResult(result, job, "job-2");
    expect(handedOver).toHaveLength(1);
  });
});
