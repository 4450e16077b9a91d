import type { DestinationType } from "./types";
import { alertUrl, postJson, queryUrl, requiredOption } from "./delivery";

const COLORS = { ok: "green", triggered: "red", unknown: "yellow" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

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
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const message =
      `<a href="${escapeHtml(alertUrl(n))}">${escapeHtml(n.alert.name)}</a> changed state to ` +
      `${n.newState.toUpperCase()} (based on <a href="${escapeHtml(queryUrl(n))}">this query</a>).`;
    await postJson(tools, url, { message, color: COLORS[n.newState] });
  },
};
