import type { DestinationType } from "./types";
import { alertUrl, option, post, queryUrl, requiredOption, substitute } from "./delivery";

/** Redash's default message: a MessageCard naming the alert and the query. */
export const DEFAULT_TEAMS_MESSAGE = JSON.stringify({
  "@type": "MessageCard",
  "@context": "http://schema.org/extensions",
  themeColor: "0076D7",
  summary: "A Redash Alert was Triggered",
  sections: [
    {
      activityTitle: "A Redash Alert was Triggered",
      facts: [
        { name: "Alert Name", value: "{alert_name}" },
        { name: "Alert URL", value: "{alert_url}" },
        { name: "Query", value: "{query_text}" },
        { name: "Query URL", value: "{query_url}" },
      ],
      markdown: true,
    },
  ],
});

/** Text placed inside a JSON string literal of the template. */
function jsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * A Microsoft Teams incoming webhook posting the message template. The URL carries the
 * webhook's token, so it is kept secret (Redash does not).
 */
export const microsoftTeams: DestinationType = {
  type: "microsoft_teams_webhook",
  name: "Microsoft Teams Webhook",
  icon: "fa-bolt",
  configurationSchema: {
    type: "object",
    properties: {
      url: { type: "string", title: "Microsoft Teams Webhook URL" },
      message_template: {
        type: "string",
        default: DEFAULT_TEAMS_MESSAGE,
        title: "Message Template",
      },
    },
    secret: ["url"],
    required: ["url"],
  },
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    // Values are escaped for the JSON string they land in, so a quote in a query keeps it JSON.
    const message = substitute(option(options, "message_template") || DEFAULT_TEAMS_MESSAGE, {
      alert_name: jsonText(n.alert.name),
      alert_url: jsonText(alertUrl(n)),
      query_text: jsonText(n.query.query),
      query_url: jsonText(queryUrl(n)),
    });
    await post(tools, url, message, { "content-type": "application/json" });
  },
};
