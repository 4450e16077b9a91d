import type { DestinationType } from "./types";

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
};
