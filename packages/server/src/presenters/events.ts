import type { StoredEvent } from "../store/events";

/** The admin list's event shape (api-platform.md §6.11). */

export interface PresentedEvent {
  org_id: number;
  user_id: number | null;
  action: string;
  object_type: string;
  object_id: string | null;
  created_at: string;
  user_name: string;
  browser: string;
  location: string;
  details: Record<string, unknown>;
}

function firstMatch(ua: string, rules: [RegExp, (m: RegExpMatchArray) => string][]): string {
  for (const [pattern, name] of rules) {
    const m = ua.match(pattern);
    if (m) return name(m);
  }
  return "Other";
}

/**
 * A short "device / OS / browser" description of a user agent, e.g. "PC / Windows / Firefox 126".
 * Deliberately small: the common browsers and systems, "Other" for the rest.
 */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  const device = /iPad|Tablet/i.test(ua)
    ? "Tablet"
    : /Mobile|iPhone|Android/i.test(ua)
      ? "Mobile"
      : /bot|crawler|spider/i.test(ua)
        ? "Spider"
        : /Windows|Macintosh|X11|Linux|CrOS/.test(ua)
          ? "PC"
          : "Other";
  const os = firstMatch(ua, [
    [/Windows NT/, () => "Windows"],
    [/(iPhone|iPad|iPod).*? OS (\d+)/, (m) => `iOS ${m[2]}`],
    [/Android (\d+)/, (m) => `Android ${m[1]}`],
    [/Android/, () => "Android"],
    [/CrOS/, () => "Chrome OS"],
    [/Mac OS X/, () => "macOS"],
    [/Linux/, () => "Linux"],
  ]);
  const browser = firstMatch(ua, [
    [/Edg(?:e|A|iOS)?\/(\d+)/, (m) => `Edge ${m[1]}`],
    [/OPR\/(\d+)/, (m) => `Opera ${m[1]}`],
    [/Firefox\/(\d+)/, (m) => `Firefox ${m[1]}`],
    [/FxiOS\/(\d+)/, (m) => `Firefox ${m[1]}`],
    [/CriOS\/(\d+)/, (m) => `Chrome ${m[1]}`],
    [/Chrome\/(\d+)/, (m) => `Chrome ${m[1]}`],
    [/Version\/(\d+)(?:\.\d+)*.*Safari\//, (m) => `Safari ${m[1]}`],
    [/^curl\/([\d.]+)/, (m) => `curl ${m[1]}`],
    [/^python-requests\/([\d.]+)/, (m) => `Python Requests ${m[1]}`],
    [/^node(?:-fetch)?\b/i, () => "Node.js"],
  ]);
  return `${device} / ${os} / ${browser}`;
}

function eventDetails(e: StoredEvent): Record<string, unknown> {
  const props = e.additional_properties;
  if (e.object_type === "data_source" && e.action === "execute_query") {
    return { query: props.query ?? null, data_source: e.object_id };
  }
  // The page viewed is the event's object id (as Redash's clients record it, `view page home`),
  // or a `page` property.
  if (e.object_type === "page" && e.action === "view") {
    return { page: e.object_id ?? props.page ?? null };
  }
  return { object_id: e.object_id, object_type: e.object_type };
}

export function presentEvent(e: StoredEvent): PresentedEvent {
  const props = e.additional_properties;
  const storedName = typeof props.user_name === "string" ? props.user_name : null;
  const keyName = typeof props.api_key === "string" ? props.api_key : null;
  const userAgent = typeof props.user_agent === "string" ? props.user_agent : null;
  return {
    org_id: e.org_id,
    user_id: e.user_id,
    action: e.action,
    object_type: e.object_type,
    object_id: e.object_id,
    created_at: e.created_at,
    user_name:
      e.user_id !== null
        ? (storedName ?? e.user_name ?? `User ${e.user_id}`)
        : (keyName ?? "Unknown"),
    browser: describeUserAgent(userAgent),
    // No geolocation database is shipped.
    location: "Unknown",
    details: eventDetails(e),
  };
}
