// Report messages to chat destinations and webhooks, posted to a real HTTP sink on 127.0.0.1:
// each carries the link and the counters' and tables' values; the webhook also the image; a
// destination that answers an error is reported without its secret URL, the others still sent.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpSink, type HttpSink } from "../alerts/testSupport";
import { encrypt } from "../auth/encryption";
import { deriveKeys } from "../auth/secretKey";
import { createOutboundClient } from "../outbound/client";
import { insertDestination } from "../store/destinations";
import { openTestStore, type TestStore } from "../testing/metadataStore";
import {
  insertOwner,
  insertTestQuery,
  mailerWithoutServer,
  storeLatestResult,
} from "../testing/storeRows";
import { deliverReport, type ReportMessage } from "./deliver";
import type { Subscription } from "./store";
import type { ReportValues } from "./values";

describe("report delivery to destinations", () => {
  let store: TestStore;
  let sink: HttpSink;
  const keys = deriveKeys(crypto.randomBytes(32).toString("hex"));
  const ids: Record<string, number> = {};
  let values: ReportValues;
  let ownerId: number;

  beforeAll(async () => {
    store = await openTestStore();
    sink = await startHttpSink();
    sink.answer = (r) => (r.path.startsWith("/broken") ? 502 : 200);
    const db = store.database.db;
    ownerId = (await insertOwner(db, store.orgId)).id;
    const types: Record<string, string> = {
      Slack: "slack",
      Mattermost: "mattermost",
      Teams: "microsoft_teams_webhook",
      Hook: "webhook",
      Broken: "slack",
    };
    for (const [name, type] of Object.entries(types)) {
      const path = name === "Broken" ? "/broken/T0/secret-token" : `/${name.toLowerCase()}`;
      const destination = await insertDestination(db, {
        orgId: store.orgId,
        userId: ownerId,
        name,
        type,
        encryptedOptions: encrypt(keys.encryption, JSON.stringify({ url: `${sink.url}${path}` })),
      });
      ids[name] = destination.id;
    }
    const query = await insertTestQuery(db, store.orgId, {
      dataSourceId: store.dataSourceId,
      userId: ownerId,
      name: "Orders",
      text: "SELECT 4242 AS counter",
      hash: "h1",
    });
    const meta = await storeLatestResult(
      db,
      query,
      [{ name: "counter", friendly_name: "counter", type: "integer" }],
      [[4242]],
    );
    values = {
      widgets: [
        {
          widgetId: 1,
          name: "Orders",
          queryId: query.id,
          queryName: "Orders",
          type: "COUNTER",
          options: { counterColName: "counter", counterLabel: "Orders today" },
          meta,
          error: null,
          head: [[4242]],
        },
      ],
      empty: false,
      digest: "d",
    };
  });
  afterAll(async () => {
    await sink?.close();
    await store?.close();
  });

  it("posts the link and values to each; the webhook gets the image too", async () => {
    const subscription = {
      id: 7,
      org_id: store.orgId,
      user_id: ownerId,
      format: "png",
      recipients: { emails: [], destination_ids: Object.values(ids) },
    } as unknown as Subscription;
    const image = Buffer.from("not really a png, but bytes all the same");
    const message: ReportMessage = {
      subscription,
      runId: 3,
      title: "Daily orders",
      link: "http://sightline.test/dashboards/5",
      image,
      files: [],
      values,
      widgets: [{ widget_id: 1, name: "Orders", state: "painted" }],
    };
    const outcome = await deliverReport(
      {
        db: store.database.db,
        keys,
        log: { warn: () => {} },
        tools: {
          outbound: createOutboundClient({ allowedRanges: ["127.0.0.1/32"] }),
          mailer: mailerWithoutServer(),
        },
      },
      message,
    );
    expect(outcome.delivered).toEqual(["Slack", "Mattermost", "Teams", "Hook"]);
    expect(outcome.failed).toHaveLength(1);
    expect(outcome.failed[0]!.recipient).toBe("Broken");
    expect(outcome.failed[0]!.reason).toMatch(/HTTP 502/);
    expect(outcome.failed[0]!.reason).not.toContain("secret-token");

    const body = (path: string) =>
      JSON.parse(sink.requests.find((r) => r.path === path)!.body) as Record<string, any>;
    expect(body("/slack").text).toContain("<http://sightline.test/dashboards/5|Daily orders>");
    expect(body("/slack").text).toContain("Orders today: 4,242");
    expect(body("/mattermost").text).toContain(
      "[Daily orders](http://sightline.test/dashboards/5)",
    );
    expect(body("/mattermost").text).toContain("Orders today: 4,242");
    const teams = body("/teams");
    expect(teams.title).toBe("Daily orders");
    expect(teams.text).toContain("Orders today: 4,242");
    expect(teams.potentialAction[0].targets[0].uri).toBe("http://sightline.test/dashboards/5");
    const hook = body("/hook");
    expect(hook.event).toBe("report");
    expect(hook.report).toMatchObject({ run_id: 3, url: "http://sightline.test/dashboards/5" });
    expect(Buffer.from(hook.image.base64, "base64").equals(image)).toBe(true);
    // The broken one was tried twice.
    expect(sink.requests.filter((r) => r.path.startsWith("/broken"))).toHaveLength(2);
  });
});
