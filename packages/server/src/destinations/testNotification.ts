import { escapeHtml } from "../auth/pages";
import { withoutSecrets } from "./delivery";
import type {
  AlertNotification,
  DeliveryTools,
  DestinationOptions,
  DestinationType,
} from "./types";

/**
 * "Send test notification": one delivery, sent at once (no retries), whose outcome is told to the
 * user in words instead of only being logged.
 */

/** What the user is told: the delivery went through, or why it did not (no secret in it). */
export interface TestOutcome {
  ok: boolean;
  message: string;
}

/** The alert a test is about: a stored one (from its page), or none (from a destination's). */
export interface TestSubject {
  alert: AlertNotification["alert"];
  query: AlertNotification["query"];
}

const SAMPLE: TestSubject = {
  alert: {
    id: 0,
    name: "Sightline",
    state: "triggered",
    options: {},
    rearm: null,
    last_triggered_at: null,
    created_at: new Date(0).toISOString(),
    updated_at: new Date(0).toISOString(),
    query_id: 0,
    user_id: 0,
  },
  query: { id: 0, name: "Test", query: "" },
};

/** A notification marked as a test in its name, title and text; it reports a trigger. */
export function testNotification(host: string, subject: TestSubject | null): AlertNotification {
  const { alert, query } = subject ?? SAMPLE;
  const name = `[Test] ${alert.name}`;
  const link = subject ? `<a href="${escapeHtml(`${host}/alerts/${alert.id}`)}">` : "";
  return {
    alert: { ...alert, name },
    query,
    newState: "triggered",
    subject: "",
    body: "",
    defaultEmailBody:
      `<p>This is a test notification from ${link}${escapeHtml(name)}${link ? "</a>" : ""}. ` +
      "Nothing has triggered.</p>",
    host,
    metadata: { test: true },
  };
}

/** Sends `notification` once through the destination type and tells how it went. */
export async function sendTest(
  destinationName: string,
  type: DestinationType,
  options: DestinationOptions,
  notification: AlertNotification,
  tools: DeliveryTools,
): Promise<TestOutcome> {
  try {
    await type.send(notification, options, tools);
  } catch (error) {
    const reason = withoutSecrets(
      error instanceof Error ? error.message : String(error),
      type,
      options,
    );
    return {
      ok: false,
      message: `The test notification to ${destinationName} failed: ${reason}`,
    };
  }
  return { ok: true, message: `The test notification was sent to ${destinationName}.` };
}
