import type { DestinationType } from "./types";
import { alertUrl, option, postForm, queryUrl, requiredOption, substitute } from "./delivery";

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
  async send(n, options, tools) {
    const token = requiredOption(options, "api_token");
    const room = requiredOption(options, "room_id");
    const template = option(options, "message_template") || DEFAULT_CHATWORK_MESSAGE;
    const message =
      (n.subject ? `${n.subject}\n` : "") +
      (n.body ||
        substitute(template.replace(/\\n/g, "\n"), {
          alert_name: n.alert.name,
          new_state: n.newState.toUpperCase(),
          alert_url: alertUrl(n),
          query_url: queryUrl(n),
        }));
    const base = tools.serviceUrls?.chatwork ?? "https://api.chatwork.com";
    await postForm(
      tools,
      `${base}/v2/rooms/${encodeURIComponent(room)}/messages`,
      { body: message },
      { "x-chatworktoken": token },
    );
  },
};
