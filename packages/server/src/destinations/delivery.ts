import type {
  AlertNotification,
  DeliveryTools,
  DestinationOptions,
  DestinationType,
} from "./types";

/** Helpers the destination types share to send (api-platform.md §9.7). */

/** Every outgoing HTTP call of a destination is given this long. */
export const DELIVERY_TIMEOUT_MS = 5_000;

/** A delivery the destination did not accept; the message carries no secret. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** A string option ("" when absent or not a string). */
export function option(options: DestinationOptions, key: string): string {
  const value = options[key];
  return typeof value === "string" ? value : "";
}

/** A required string option; a missing one fails the delivery. */
export function requiredOption(options: DestinationOptions, key: string): string {
  const value = option(options, key);
  if (value === "") throw new DeliveryError(`The destination has no ${key}.`);
  return value;
}

/** Posts a body and fails on any answer other than 2xx (the host is named, not the address). */
export async function post(
  tools: DeliveryTools,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<void> {
  const response = await tools.outbound.request(url, {
    method: "POST",
    headers,
    body: Buffer.from(body, "utf8"),
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxResponseBytes: 1024 * 1024,
  });
  if (response.status < 200 || response.status >= 300) {
    throw new DeliveryError(`${new URL(response.url).host} answered HTTP ${response.status}.`);
  }
}

export function postJson(
  tools: DeliveryTools,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
  contentType = "application/json",
): Promise<void> {
  return post(tools, url, JSON.stringify(payload), { "content-type": contentType, ...headers });
}

export function postForm(
  tools: DeliveryTools,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<void> {
  return post(tools, url, new URLSearchParams(fields).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    ...headers,
  });
}

export function queryUrl(n: AlertNotification): string {
  return `${n.host}/queries/${n.query.id}`;
}

export function alertUrl(n: AlertNotification): string {
  return `${n.host}/alerts/${n.alert.id}`;
}

/** Redash's default one-line texts of the chat destinations. */
export function stateText(n: AlertNotification): string {
  return n.newState === "triggered"
    ? `${n.alert.name} just triggered`
    : `${n.alert.name} went back to normal`;
}

/** Text with `{name}` placeholders replaced (every occurrence, as Python's str.format). */
export function substitute(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * A failed delivery's reason with every secret option (a webhook URL, a token) masked, in any
 * spelling seen, so it can be logged, stored on the destination and shown.
 */
export function withoutSecrets(
  reason: string,
  type: DestinationType,
  options: DestinationOptions,
): string {
  let text = reason;
  for (const key of type.configurationSchema.secret ?? []) {
    const value = options[key];
    if (typeof value !== "string" || value.length < 4) continue;
    const spellings = new Set([value, encodeURIComponent(value)]);
    try {
      spellings.add(new URL(value).href);
    } catch {
      // Not a URL: the value as written is enough.
    }
    for (const spelling of spellings) text = text.split(spelling).join("--------");
  }
  return text;
}
