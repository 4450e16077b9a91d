import type { DestinationType } from "./types";
import { alertUrl, postJson, queryUrl, requiredOption, stateText } from "./delivery";

const COLORS = { ok: "2600544", triggered: "12597547", unknown: "16776960" };

/** A Discord channel webhook; the URL carries the token, so it is secret. */
export const discord: DestinationType = {
  type: "discord",
  name: "Discord",
  icon: "fa-discord",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Discord Webhook URL" },
    },
    secret: ["url"],
    required: ["url"],
  },
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const fields: Record<string, unknown>[] = [
      { name: "Query", value: queryUrl(n), inline: true },
      { name: "Alert", value: alertUrl(n), inline: true },
    ];
    if (n.body) fields.push({ name: "Description", value: n.body });
    // Redash puts the subject as written (not rendered) here.
    const subject = n.alert.options.custom_subject;
    const text =
      n.newState === "triggered" && typeof subject === "string" && subject !== ""
        ? subject
        : stateText(n);
    await postJson(tools, url, { content: text, embeds: [{ color: COLORS[n.newState], fields }] });
  },
};
