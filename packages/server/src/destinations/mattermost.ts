import type { DestinationType } from "./types";

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
};
