import type { DestinationType } from "./types";
import { option, postJson, requiredOption } from "./delivery";

/** A PagerDuty Events API v2 incident, triggered and resolved with the alert. */
export const pagerduty: DestinationType = {
  type: "pagerduty",
  name: "PagerDuty",
  icon: "creative-commons-pd-alt",
  configurationSchema: {
    type: "object",
    properties: {
      integration_key: { type: "string", title: "PagerDuty Service Integration Key" },
      description: { type: "string", title: "Description for the event, defaults to alert name" },
    },
    secret: ["integration_key"],
    required: ["integration_key"],
  },
  async send(n, options, tools) {
    const key = requiredOption(options, "integration_key");
    // PagerDuty knows incidents that start and end; an unknown state is neither.
    if (n.newState === "unknown") return;
    const incident = `${n.alert.id}_${n.query.id}`;
    const payload = {
      routing_key: key,
      incident_key: incident,
      dedup_key: incident,
      payload: {
        summary: n.subject || option(options, "description") || `Alert: ${n.alert.name}`,
        severity: "error",
        source: "redash",
        ...(n.body ? { custom_details: n.body } : {}),
      },
      event_action: n.newState === "triggered" ? "trigger" : "resolve",
    };
    const base = tools.serviceUrls?.pagerduty ?? "https://events.pagerduty.com";
    await postJson(tools, `${base}/v2/enqueue`, payload);
  },
};
