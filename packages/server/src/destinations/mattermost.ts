import type { DestinationType } from "./types";
import { option, postJson, requiredOption } from "./delivery";

/** A Mattermost incoming webhook, optionally posting as another name, icon or channel. */
export const mattermost: DestinationType = {
  type: "mattermost",
  name: "Mattermost",
  icon: "fa-bolt",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Mattermost Webhook URL" },
      username: { type: "string", title: "Username" },
      icon_url: { type: "string", title: "Icon (URL)" },
      channel: { type: "string", title: "Channel" },
    },
    secret: ["url"],
  },
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const text =
      n.subject ||
      (n.newState === "triggered"
        ? `#### ${n.alert.name} just triggered`
        : `#### ${n.alert.name} went back to normal`);
    const payload: Record<string, unknown> = { text };
    if (n.body) payload.attachments = [{ fields: [{ title: "Description", value: n.body }] }];
    for (const key of ["username", "icon_url", "channel"]) {
      if (option(options, key)) payload[key] = option(options, key);
    }
    await postJson(tools, url, payload);
  },
};
