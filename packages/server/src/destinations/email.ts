import type { DestinationType } from "./types";
import { DeliveryError, option, substitute } from "./delivery";

export const DEFAULT_EMAIL_SUBJECT = "Alert: {alert_name} changed status to {state}";

/** Mail to a comma-separated list of addresses. */
export const email: DestinationType = {
  type: "email",
  name: "Email",
  icon: "fa-envelope",
  configurationSchema: {
    type: "object",
    properties: {
      addresses: { type: "string" },
      subject_template: {
        type: "string",
        default: DEFAULT_EMAIL_SUBJECT,
        title: "Subject Template",
      },
    },
    required: ["addresses"],
    extra_options: ["subject_template"],
  },
  async send(n, options, tools) {
    const recipients = option(options, "addresses")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    if (recipients.length === 0) return;
    if (!tools.mailer.configured) throw new DeliveryError("The mail server is not configured.");
    const subject =
      n.subject ||
      substitute(option(options, "subject_template") || DEFAULT_EMAIL_SUBJECT, {
        alert_name: n.alert.name,
        state: n.newState.toUpperCase(),
      });
    await tools.mailer.send({
      to: recipients.join(", "),
      subject,
      // The custom body's values HTML-escaped (its text form is for chat), else the default body.
      html: n.emailBody || n.defaultEmailBody,
    });
  },
};
