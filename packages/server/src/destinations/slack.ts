import type { DestinationType } from "./types";
import { alertUrl, postJson, queryUrl, requiredOption } from "./delivery";

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
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const fields: Record<string, string>[] = [
      { title: "Query", type: "mrkdwn", value: queryUrl(n) },
      { title: "Alert", type: "mrkdwn", value: alertUrl(n) },
    ];
    if (n.body) fields.push({ title: "Description", value: n.body });
    const triggered = n.newState === "triggered";
    const text = triggered
      ? n.subject || `${n.alert.name} just triggered`
      : `${n.alert.name} went back to normal`;
    const color = triggered ? "#c0392b" : "#27ae60";
    await postJson(tools, url, { attachments: [{ text, color, fields }] });
  },
};
