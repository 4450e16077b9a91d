import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveKeys } from "../auth/secretKey";
import { writeDestinationOptions } from "../destinations/options";
import { insertAlert, insertSubscription } from "../store/alerts";
import { findDestination, insertDestination } from "../store/destinations";
import { insertOwnedAlert } from "../testing/alertRows";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import { insertTestQuery, insertOwner, mailerWithoutServer } from "../testing/storeRows";
import { createNotifier } from "./notifications";
import { startHttpSink, type HttpSink } from "./testSupport";

/** Failed deliveries: retried, then logged and recorded without their secrets. */
describe("alert notifier", () => {
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

  it("tries three times, then logs destination, alert and reason, never the secret", async () => {
    const db = store.database.db;
    const { user, query, alert } = await insertOwnedAlert(store, {
      text: "SELECT 1",
      hash: "h",
      options: { column: "x", op: ">", value: 1 },
    });
    const destination = async (name: string, type: string, options: Record<string, unknown>) => {
      const row = await insertDestination(db, {
        orgId: store.orgId,
        userId: user.id,
        name,
        type,
        encryptedOptions: writeDestinationOptions({ keys }, options),
      });
      await insertSubscription(db, { alertId: alert.id, userId: user.id, destinationId: row.id });
      return row.id;
    };
    const failing = await destination("Failing", "slack", {
      url: `${sink.url}/services/secret-slack-token`,
    });
    const invalid = await destination("Invalid", "webhook", { url: "http://[secret-host-token" });
    const pager = await destination("Pager", "pagerduty", { integration_key: "secret-pd-key" });
    sink.answer = () => 502;

    const warnings: unknown[][] = [];
    const notifier = createNotifier({
      db,
      config: {
        baseUrl: "https://sightline.example.com/",
        outboundAllowedRanges: ["127.0.0.1/32"],
      },
      keys,
      mailer: mailerWithoutServer(),
      log: { warn: (...args: unknown[]) => warnings.push(args), error: () => undefined },
      tools: { serviceUrls: { pagerduty: `${sink.url}/pd` } },
      retryDelaysMs: [10, 20],
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

    expect(sink.requests.filter((r) => r.path.startsWith("/services/"))).toHaveLength(3);
    expect(sink.requests.filter((r) => r.path === "/pd/v2/enqueue")).toHaveLength(3);
    const logged = warnings.map(([fields]) => fields as Record<string, unknown>);
    expect(logged).toHaveLength(3);
    expect(logged).toEqual(
      expect.arrayContaining([
        {
          alert_id: alert.id,
          destination_id: failing,
          destination_type: "slack",
          reason: expect.stringMatching(/^127\.0\.0\.1:\d+ answered HTTP 502\.$/),
        },
        {
          alert_id: alert.id,
          destination_id: invalid,
          destination_type: "webhook",
          reason: "Invalid URL: --------",
        },
        expect.objectContaining({ destination_id: pager, destination_type: "pagerduty" }),
      ]),
    );
    const recorded = await findDestination(db, store.orgId, invalid);
    expect(recorded?.last_failure).toBe("Invalid URL: --------");
    expect(recorded?.last_failure_at).not.toBeNull();
    const everything = JSON.stringify({ warnings, recorded });
    expect(everything).not.toMatch(/secret-(host|pd)|secret-slack-token/);
  });

  it("skips only the alert whose stored template cannot be rendered", async () => {
    const db = store.database.db;
    const user = await insertOwner(db, store.orgId, "Other", "other@example.com");
    const query = await insertTestQuery(db, store.orgId, {
      dataSourceId: store.dataSourceId,
      userId: user.id,
      lastModifiedById: user.id,
      name: "Q2",
      text: "SELECT 2",
      hash: "h2",
    });
    const hook = await insertDestination(db, {
      orgId: store.orgId,
      userId: user.id,
      name: "Good hook",
      type: "webhook",
      encryptedOptions: writeDestinationOptions({ keys }, { url: `${sink.url}/good` }),
    });
    const alerts = [];
    for (const custom_body of ["{{#QUERY_RESULT_ROWS}} unclosed", "fine"]) {
      const alert = await insertAlert(db, {
        orgId: store.orgId,
        userId: user.id,
        name: custom_body,
        queryId: query.id,
        options: { column: "x", op: ">", value: 1, custom_body },
        rearm: null,
      });
      await insertSubscription(db, { alertId: alert.id, userId: user.id, destinationId: hook.id });
      alerts.push(alert);
    }
    sink.answer = () => 200;
    const warnings: unknown[][] = [];
    const notifier = createNotifier({
      db,
      config: { baseUrl: "", outboundAllowedRanges: ["127.0.0.1/32"] },
      keys,
      mailer: mailerWithoutServer(),
      log: { warn: (...args: unknown[]) => warnings.push(args), error: () => undefined },
    });
    notifier.dispatch(
      alerts.map((alert) => ({ alert, query, newState: "ok", data: null, metadata: {} })),
    );
    await notifier.idle();
    const received = sink.requests.filter((r) => r.path === "/good");
    expect(received.map((r) => JSON.parse(r.body).alert.description)).toEqual(["fine"]);
    expect(warnings.map(([fields]) => fields)).toEqual([
      { alert_id: alerts[0]!.id, reason: expect.stringContaining("Unclosed section") },
    ]);
  });
});
