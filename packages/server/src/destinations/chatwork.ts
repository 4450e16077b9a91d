import type { DestinationType } from "./types";

/** Redash's default text; `\n` is written literally and turned into a newline when sending. */
export const DEFAULT_CHATWORK_MESSAGE =
  "{alert_name} changed state to {new_state}.\\n{alert_url}\\n{query_url}";

/** A message in a ChatWork room. */
export const chatwork: DestinationType = {
  type: "chatwork",
  name: "ChatWork",
  icon: "fa-comment",
  configurationSchema: {
    type: "object",
    properties: {
      api_token: { type: "string", title: "API Token" },
      room_id: { type: "string", title: "Room ID" },
      message_template: {
        type: "string",
        default: DEFAULT_CHATWORK_MESSAGE,
        title: "Message Template",
      },
    },
    secret: ["api_token"],
    required: ["message_template", "api_token", "room_id"],
  },
};
