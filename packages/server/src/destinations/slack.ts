import type { DestinationType } from "./types";

/** A Slack incoming webhook; the URL carries the token, so it is secret. */
export const slack: DestinationType = {
  type: "slack",
  name: "Slack",
  icon: "fa-slack",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Slack Webhook URL" },
    },
    secret: ["url"],
  },
};
