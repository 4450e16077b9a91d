import type { DestinationType } from "./types";

/** A card posted to a Google Chat (formerly Hangouts Chat) room webhook. */
export const hangoutsChat: DestinationType = {
  type: "hangouts_chat",
  name: "Google Hangouts Chat",
  icon: "fa-bolt",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Webhook URL (get it from the room settings)" },
      icon_url: { type: "string", title: "Icon URL (32x32 or multiple, png format)" },
    },
    secret: ["url"],
    required: ["url"],
  },
};
