import type { DestinationType } from "./types";

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
};
