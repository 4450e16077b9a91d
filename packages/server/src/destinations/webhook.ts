import type { DestinationType } from "./types";
import { option, postJson, requiredOption } from "./delivery";

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
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const username = option(options, "username");
    const headers: Record<string, string> = username
      ? {
          authorization: `Basic ${Buffer.from(`${username}:${option(options, "password")}`).toString("base64")}`,
        }
      : {};
    const payload = {
      event: "alert_state_change",
      alert: { ...n.alert, description: n.body, title: n.subject },
      url_base: n.host,
      metadata: n.metadata,
    };
    await postJson(tools, url, payload, headers);
  },
};
