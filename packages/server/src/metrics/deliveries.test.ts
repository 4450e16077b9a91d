import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveKeys } from "../auth/secretKey";
import { createNotifier } from "../alerts/notifications";
import { startHttpSink, type HttpSink } from "../alerts/testSupport";
import { writeDestinationOptions } from "../destinations/options";
import { insertSubscription } from "../store/alerts";
import { insertDestination } from "../store/destinations";
import { insertOwnedAlert } from "../testing/alertRows";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { mailerWithoutServer } from "../testing/storeRows";
import { processRegistry } from "./registry";

/** The counter's value for one destination type and result (0 when never counted). */
async function deliveries(destinationType: string, result: string): Promise<number> {
  const metric = processRegistry.getSingleMetric("sightline_alert_deliveries_total");
  const values = (await metric?.get())?.values ?? [];
  const value = values.find(
    (v) => v.labels.destination_type === destinationType && v.labels.result === result,
  );
  return value?.value ?? 0;
}

/** Each notification counts once: sent, or failed after its retries. */
describe("alert delivery metrics", () => {
  let store: TestStore;
  let sink: HttpSink;
  const keys = deriveKeys(crypto.randomBytes(32).toString("hex"));

  beforeAll(async () => {
    store = await openTestStore();
    sink = await startHttpSink();
  });

  afterAll(async () => {
    await sink?.close();
    await store?.close();
  });

  it("counts deliveries by destination type and result", async () => {
    const db = store.database.db;
    const { user, query, alert } = await insertOwnedAlert(store, {
      text: "SELECT 1",
      hash: "h",
      options: { column: "x", op: ">", value: 1 },
    });
    for (const [name, type, path] of [
      ["Hook", "webhook", "/ok"],
      ["Chat", "slack", "/fail"],
    ] as const) {
      const row = await insertDestination(db, {
        orgId: store.orgId,
        userId: user.id,
        name,
        type,
        encryptedOptions: writeDestinationOptions({ keys }, { url: `${sink.url}${path}` }),
      });
      await insertSubscription(db, { alertId: alert.id, userId: user.id, destinationId: row.id });
    }
    sink.answer = (request) => (request.path === "/fail" ? 502 : 200);
    // The registry is the process's: other test files in this worker may have counted already.
    const before = {
      sent: await deliveries("webhook", "sent"),
      failed: await deliveries("slack", "failed"),
      webhookFailed: await deliveries("webhook", "failed"),
    };

    const notifier = createNotifier({
      db,
      config: {
        baseUrl: "https://sightline.example.com/",
        outboundAllowedRanges: ["127.0.0.1/32"],
      },
      keys,
      mailer: mailerWithoutServer(),
      log: { warn: () => undefined, error: () => undefined },
      retryDelaysMs: [10],
    });
    notifier.dispatch([
      {
        alert: { ...alert, state: "triggered" },
        query,
        newState: "triggered",
        data: null,
        metadata: {},
      },
    ]);
    await notifier.idle();

    // Two tries of the failing one, counted once.
    expect(sink.requests.filter((r) => r.path === "/fail")).toHaveLength(2);
    expect(await deliveries("webhook", "sent")).toBe(before.sent + 1);
    expect(await deliveries("slack", "failed")).toBe(before.failed + 1);
    expect(await deliveries("webhook", "failed")).toBe(before.webhookFailed);
  });
});
