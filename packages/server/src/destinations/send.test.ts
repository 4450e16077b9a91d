import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHttpSink, startMailSink, type HttpSink, type MailSink } from "../alerts/testSupport";
import { createMailer } from "../mail";
import { createOutboundClient } from "../outbound/client";
import { findDestinationType } from "./registry";
import { DEFAULT_TEAMS_MESSAGE } from "./microsoftTeams";
import type { AlertNotification, DeliveryTools } from "./types";

/** Every destination type's request and payload (api-platform.md §9.7), against real receivers. */

const HOST = "https://sightline.example.com";

function notification(overrides: Partial<AlertNotification> = {}): AlertNotification {
  return {
    alert: {
      id: 7,
      name: "Too many ünïcode people",
      options: { column: "n", op: ">", value: 1 },
      state: "triggered",
      last_triggered_at: "2024-05-01T10:20:30.123Z",
      updated_at: "2024-05-01T10:20:30.123Z",
      created_at: "2024-04-01T08:00:00.000Z",
      rearm: null,
      query_id: 3,
      user_id: 1,
    },
    query: { id: 3, name: "People", query: 'SELECT "n" FROM people' },
    newState: "triggered",
    subject: "",
    body: "",
    defaultEmailBody: "<p>default body</p>",
    host: HOST,
    metadata: { Username: "Scheduled", query_id: 3 },
    ...overrides,
  };
}

describe("destination delivery", () => {
  let sink: HttpSink;
  let smtp: MailSink;
  let tools: DeliveryTools;

  beforeAll(async () => {
    sink = await startHttpSink();
    smtp = await startMailSink();
    tools = {
      outbound: createOutboundClient({ allowedRanges: ["127.0.0.1/32"] }),
      mailer: createMailer({
        server: "127.0.0.1",
        port: smtp.port,
        useTls: false,
        username: null,
        password: null,
        defaultSender: "alerts@sightline.example.com",
      }),
      serviceUrls: { chatwork: `${sink.url}/chatwork`, pagerduty: `${sink.url}/pagerduty` },
    };
  });

  afterAll(async () => {
    await sink?.close();
    await smtp?.close();
  });

  beforeEach(() => {
    sink.requests.length = 0;
    sink.answer = () => 200;
  });

  async function send(type: string, options: Record<string, unknown>, n = notification()) {
    await findDestinationType(type)!.send(n, options, tools);
  }

  const only = () => {
    expect(sink.requests).toHaveLength(1);
    return sink.requests[0]!;
  };
  const json = () => JSON.parse(only().body) as unknown;

  it("slack: attachments with text, colour and the links; description from the body", async () => {
    await send("slack", { url: `${sink.url}/slack` });
    expect(only().path).toBe("/slack");
    expect(only().headers["content-type"]).toBe("application/json");
    expect(json()).toEqual({
      attachments: [
        {
          text: "Too many ünïcode people just triggered",
          color: "#c0392b",
          fields: [
            { title: "Query", type: "mrkdwn", value: `${HOST}/queries/3` },
            { title: "Alert", type: "mrkdwn", value: `${HOST}/alerts/7` },
          ],
        },
      ],
    });
    sink.requests.length = 0;
    await send(
      "slack",
      { url: `${sink.url}/slack` },
      notification({ newState: "ok", subject: "S", body: "B" }),
    );
    expect(json()).toEqual({
      attachments: [
        {
          text: "Too many ünïcode people went back to normal",
          color: "#27ae60",
          fields: [
            { title: "Query", type: "mrkdwn", value: `${HOST}/queries/3` },
            { title: "Alert", type: "mrkdwn", value: `${HOST}/alerts/7` },
            { title: "Description", value: "B" },
          ],
        },
      ],
    });
  });

  it("webhook: the compact alert with description and title, UTF-8 bytes, Basic auth", async () => {
    const n = notification({ subject: "Subject ✓", body: "Body ✓" });
    await send("webhook", { url: `${sink.url}/hook?x=1`, username: "u", password: "p" }, n);
    const request = only();
    expect(request.path).toBe("/hook?x=1");
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
    expect(Number(request.headers["content-length"])).toBe(Buffer.byteLength(request.body));
    expect(json()).toEqual({
      event: "alert_state_change",
      alert: { ...n.alert, description: "Body ✓", title: "Subject ✓" },
      url_base: HOST,
      metadata: { Username: "Scheduled", query_id: 3 },
    });
    sink.requests.length = 0;
    await send("webhook", { url: `${sink.url}/hook` });
    expect(only().headers.authorization).toBeUndefined();
  });

  it("discord: content, colour by state and the link fields", async () => {
    const n = notification({
      body: "B",
      alert: { ...notification().alert, options: { custom_subject: "{{ALERT_NAME}} raw" } },
    });
    await send("discord", { url: `${sink.url}/discord` }, n);
    expect(json()).toEqual({
      content: "{{ALERT_NAME}} raw",
      embeds: [
        {
          color: "12597547",
          fields: [
            { name: "Query", value: `${HOST}/queries/3`, inline: true },
            { name: "Alert", value: `${HOST}/alerts/7`, inline: true },
            { name: "Description", value: "B" },
          ],
        },
      ],
    });
    for (const [state, color] of [
      ["ok", "2600544"],
      ["unknown", "16776960"],
    ] as const) {
      sink.requests.length = 0;
      await send("discord", { url: `${sink.url}/discord` }, notification({ newState: state }));
      expect(json()).toMatchObject({
        content: "Too many ünïcode people went back to normal",
        embeds: [{ color }],
      });
    }
  });

  it("mattermost: the heading text, description, and the configured name, icon and channel", async () => {
    await send("mattermost", { url: `${sink.url}/mm` });
    expect(json()).toEqual({ text: "#### Too many ünïcode people just triggered" });
    sink.requests.length = 0;
    await send(
      "mattermost",
      { url: `${sink.url}/mm`, username: "bot", icon_url: "https://i/x.png", channel: "ops" },
      notification({ newState: "ok", body: "B" }),
    );
    expect(json()).toEqual({
      text: "#### Too many ünïcode people went back to normal",
      attachments: [{ fields: [{ title: "Description", value: "B" }] }],
      username: "bot",
      icon_url: "https://i/x.png",
      channel: "ops",
    });
    sink.requests.length = 0;
    await send("mattermost", { url: `${sink.url}/mm` }, notification({ subject: "Custom" }));
    expect(json()).toEqual({ text: "Custom" });
  });

  it("chatwork: a form to the room with the token header and the message template", async () => {
    const template = "{alert_name} changed state to {new_state}.\\n{alert_url}\\n{query_url}";
    await send("chatwork", { api_token: "tok", room_id: "42", message_template: template });
    const request = only();
    expect(request.path).toBe("/chatwork/v2/rooms/42/messages");
    expect(request.headers["x-chatworktoken"]).toBe("tok");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      body: `Too many ünïcode people changed state to TRIGGERED.\n${HOST}/alerts/7\n${HOST}/queries/3`,
    });
    sink.requests.length = 0;
    await send(
      "chatwork",
      { api_token: "tok", room_id: "42", message_template: template },
      notification({ subject: "S", body: "B" }),
    );
    expect(new URLSearchParams(only().body).get("body")).toBe("S\nB");
  });

  it("hangouts chat: a card with the state message, the query button and the body", async () => {
    await send(
      "hangouts_chat",
      { url: `${sink.url}/chat`, icon_url: "https://i/x.png" },
      notification({ body: "B" }),
    );
    expect(only().headers["content-type"]).toBe("application/json; charset=UTF-8");
    expect(json()).toEqual({
      cards: [
        {
          header: { title: "Too many ünïcode people", imageUrl: "https://i/x.png" },
          sections: [
            {
              widgets: [
                { textParagraph: { text: '<b><font color="#c0392b">Triggered</font></b>' } },
                {
                  buttons: [
                    {
                      textButton: {
                        text: "OPEN QUERY",
                        onClick: { openLink: { url: `${HOST}/queries/3` } },
                      },
                    },
                  ],
                },
              ],
            },
            { widgets: [{ textParagraph: { text: "B" } }] },
          ],
        },
      ],
    });
    sink.requests.length = 0;
    await send(
      "hangouts_chat",
      { url: `${sink.url}/chat` },
      notification({ newState: "unknown", host: "", subject: "S" }),
    );
    expect(json()).toEqual({
      cards: [
        {
          header: { title: "S" },
          sections: [
            {
              widgets: [
                {
                  textParagraph: {
                    text: "Unable to determine status. Check Query and Alert configuration.",
                  },
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it("pagerduty: trigger and resolve events; nothing for unknown", async () => {
    await send("pagerduty", { integration_key: "key", description: "Desc" });
    expect(only().path).toBe("/pagerduty/v2/enqueue");
    expect(json()).toEqual({
      routing_key: "key",
      incident_key: "7_3",
      dedup_key: "7_3",
      payload: { summary: "Desc", severity: "error", source: "redash" },
      event_action: "trigger",
    });
    sink.requests.length = 0;
    await send(
      "pagerduty",
      { integration_key: "key" },
      notification({ newState: "ok", body: "B" }),
    );
    expect(json()).toEqual({
      routing_key: "key",
      incident_key: "7_3",
      dedup_key: "7_3",
      payload: {
        summary: "Alert: Too many ünïcode people",
        severity: "error",
        source: "redash",
        custom_details: "B",
      },
      event_action: "resolve",
    });
    sink.requests.length = 0;
    await send("pagerduty", { integration_key: "key" }, notification({ newState: "unknown" }));
    expect(sink.requests).toEqual([]);
  });

  it("hipchat: the HTML message and the colour of the state", async () => {
    await send("hipchat", { url: `${sink.url}/hipchat` });
    expect(json()).toEqual({
      message: `<a href="${HOST}/alerts/7">Too many ünïcode people</a> changed state to TRIGGERED (based on <a href="${HOST}/queries/3">this query</a>).`,
      color: "red",
    });
  });

  it("microsoft teams: the template with values escaped for JSON", async () => {
    await send("microsoft_teams_webhook", { url: `${sink.url}/teams` });
    const expected = JSON.parse(DEFAULT_TEAMS_MESSAGE) as { sections: { facts: unknown[] }[] };
    expected.sections[0]!.facts = [
      { name: "Alert Name", value: "Too many ünïcode people" },
      { name: "Alert URL", value: `${HOST}/alerts/7` },
      { name: "Query", value: 'SELECT "n" FROM people' },
      { name: "Query URL", value: `${HOST}/queries/3` },
    ];
    expect(only().headers["content-type"]).toBe("application/json");
    expect(json()).toEqual(expected);
  });

  it("email: to every address, the subject template, the default or custom HTML body", async () => {
    await send("email", { addresses: "a@example.com, ,b@example.com" });
    await send(
      "email",
      { addresses: "c@example.com", subject_template: "{alert_name}: {state}!" },
      // The custom body's text form is for chat; the e-mail carries its HTML form.
      notification({ newState: "ok", body: "custom as text", emailBody: "<p>custom</p>" }),
    );
    await send("email", { addresses: "d@example.com" }, notification({ subject: "Mine" }));
    await expect.poll(() => smtp.mails.length).toBe(3);
    const byTo = new Map(smtp.mails.map((m) => [m.to && "text" in m.to ? m.to.text : "", m]));
    const first = byTo.get("a@example.com, b@example.com")!;
    expect(first.subject).toBe("Alert: Too many ünïcode people changed status to TRIGGERED");
    expect(String(first.html).trim()).toBe("<p>default body</p>");
    expect(first.from?.text).toBe("alerts@sightline.example.com");
    const second = byTo.get("c@example.com")!;
    expect(second.subject).toBe("Too many ünïcode people: OK!");
    expect(String(second.html).trim()).toBe("<p>custom</p>");
    expect(byTo.get("d@example.com")!.subject).toBe("Mine");
    // No address: nothing to send.
    await send("email", { addresses: " , " });
    expect(smtp.mails).toHaveLength(3);
  });

  it("fails on a non-2xx answer and on refused addresses, naming no secret", async () => {
    sink.answer = () => 500;
    const url = `${sink.url}/slack/secret-token`;
    const failure = findDestinationType("slack")!.send(notification(), { url }, tools);
    await expect(failure).rejects.toThrow(/answered HTTP 500/);
    await expect(failure).rejects.not.toThrow(/secret-token/);
    const guarded: DeliveryTools = { ...tools, outbound: createOutboundClient() };
    await expect(
      findDestinationType("webhook")!.send(notification(), { url: `${sink.url}/x` }, guarded),
    ).rejects.toThrow(/127\.0\.0\.1|loopback|internal|not allowed/i);
  });

  it("gives up after 5 s on a receiver that never answers", async () => {
    sink.answer = () => "hang";
    const started = Date.now();
    await expect(
      findDestinationType("webhook")!.send(notification(), { url: `${sink.url}/slow` }, tools),
    ).rejects.toThrow(/timed out after 5 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  }, 20_000);
});
