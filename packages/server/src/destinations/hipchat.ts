import type { DestinationType } from "./types";

/**
 * HipChat (the service is shut down; Redash dropped it). Listed as deprecated so existing
 * destinations still show; the notification URL carries a token, so it is kept secret.
 */
export const hipchat: DestinationType = {
  type: "hipchat",
  name: "HipChat",
  icon: "fa-comment-o",
  deprecated: true,
  configurationSchema: {
    type: "object",
    properties: {
      url: {
        type: "string",
        title: "HipChat Notification URL (get it from the Integrations page)",
      },
    },
    required: ["url"],
    secret: ["url"],
  },
};
