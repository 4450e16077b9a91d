import type { DestinationType } from "./types";
import { option, postJson, queryUrl, requiredOption } from "./delivery";

const MESSAGES = {
  triggered: '<b><font color="#c0392b">Triggered</font></b>',
  ok: '<font color="#27ae60">Went back to normal</font>',
  unknown: "Unable to determine status. Check Query and Alert configuration.",
};

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
  async send(n, options, tools) {
    const url = requiredOption(options, "url");
    const widgets: unknown[] = [{ textParagraph: { text: MESSAGES[n.newState] } }];
    if (n.host) {
      widgets.push({
        buttons: [
          { textButton: { text: "OPEN QUERY", onClick: { openLink: { url: queryUrl(n) } } } },
        ],
      });
    }
    const sections: unknown[] = [{ widgets }];
    if (n.body) sections.push({ widgets: [{ textParagraph: { text: n.body } }] });
    const icon = option(options, "icon_url");
    const header = { title: n.subject || n.alert.name, ...(icon ? { imageUrl: icon } : {}) };
    await postJson(
      tools,
      url,
      { cards: [{ header, sections }] },
      {},
      "application/json; charset=UTF-8",
    );
  },
};
