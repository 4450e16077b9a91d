import type { DestinationType } from "./types";

/** A JSON POST to any URL, with optional HTTP Basic credentials. */
export const webhook: DestinationType = {
  type: "webhook",
  name: "Webhook",
  icon: "fa-bolt",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string" },
      username: { type: "string" },
      password: { type: "string" },
    },
    required: ["url"],
    secret: ["password", "url"],
  },
};
