// The subscription form's values, their checks and what a save sends (issue 28).
import type {
  ReportFormat,
  ReportSchedule,
  ReportSubscription,
  ReportSubscriptionInput,
} from "../../api/reports";

export interface SubscriptionFormValues {
  name: string;
  schedule: ReportSchedule | null;
  format: ReportFormat;
  emails: string[];
  destination_ids: number[];
  parameters: Record<string, unknown>;
  skip_if_empty: boolean;
  only_if_changed: boolean;
  active: boolean;
}

export type SubscriptionFormErrors = Partial<Record<"name" | "emails" | "recipients", string>>;

export const NAME_MAX = 255;
export const NAME_REQUIRED = "Give the subscription a name.";
export const NAME_TOO_LONG = `The name can be at most ${NAME_MAX} characters.`;
export const RECIPIENTS_REQUIRED = "Add at least one e-mail address or destination.";
export const DEFAULT_INTERVAL = 86_400;
export const DEFAULT_LOCAL_TIME = "09:00";

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]{2,}$/;

export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text.trim());
}

export function invalidEmailsText(invalid: readonly string[]): string {
  const quoted = invalid.map((e) => `"${e}"`).join(", ");
  return invalid.length === 1
    ? `${quoted} is not a valid e-mail address.`
    : `${quoted} are not valid e-mail addresses.`;
}

/** Addresses typed or pasted together ("a@x.org; b@x.org"), trimmed, each once. */
export function splitEmails(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const part of value.split(/[\s,;]+/)) {
      const email = part.trim();
      if (email && !out.some((e) => e.toLowerCase() === email.toLowerCase())) out.push(email);
    }
  }
  return out;
}

export function validateSubscription(values: SubscriptionFormValues): SubscriptionFormErrors {
  const errors: SubscriptionFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = NAME_REQUIRED;
  else if (name.length > NAME_MAX) errors.name = NAME_TOO_LONG;
  const invalid = values.emails.filter((e) => !isEmailAddress(e));
  if (invalid.length) errors.emails = invalidEmailsText(invalid);
  else if (values.emails.length === 0 && values.destination_ids.length === 0)
    errors.recipients = RECIPIENTS_REQUIRED;
  return errors;
}

/** A new subscription: daily at 09:00 the reader's time, as a PNG image, the current values. */
export function newSubscriptionValues(
  dashboardName: string,
  parameters: Record<string, unknown>,
  utcTimeOf: (local: string) => string,
  userEmail?: string,
): SubscriptionFormValues {
  return {
    name: (/\breport$/i.test(dashboardName.trim())
      ? dashboardName.trim()
      : `${dashboardName.trim()} report`
    ).slice(0, NAME_MAX),
    schedule: {
      interval: DEFAULT_INTERVAL,
      time: utcTimeOf(DEFAULT_LOCAL_TIME),
      day_of_week: null,
      until: null,
    },
    format: "png",
    emails: userEmail ? [userEmail] : [],
    destination_ids: [],
    parameters: { ...parameters },
    skip_if_empty: false,
    only_if_changed: false,
    active: true,
  };
}

export function subscriptionValues(subscription: ReportSubscription): SubscriptionFormValues {
  return {
    name: subscription.name,
    schedule: subscription.schedule,
    format: subscription.format,
    emails: [...(subscription.recipients?.emails ?? [])],
    destination_ids: [...(subscription.recipients?.destination_ids ?? [])],
    parameters: { ...(subscription.parameters ?? {}) },
    skip_if_empty: subscription.skip_if_empty,
    only_if_changed: subscription.only_if_changed,
    active: subscription.active,
  };
}

export function subscriptionInput(values: SubscriptionFormValues): ReportSubscriptionInput {
  const schedule = values.schedule;
  return {
    name: values.name.trim(),
    schedule:
      schedule && schedule.interval
        ? {
            interval: Number(schedule.interval),
            time: schedule.time ?? null,
            day_of_week: schedule.day_of_week ?? null,
            until: schedule.until ?? null,
          }
        : null,
    format: values.format,
    recipients: {
      emails: splitEmails(values.emails),
      destination_ids: [...new Set(values.destination_ids)],
    },
    parameters: values.parameters,
    skip_if_empty: values.skip_if_empty,
    only_if_changed: values.only_if_changed,
    active: values.active,
  };
}
