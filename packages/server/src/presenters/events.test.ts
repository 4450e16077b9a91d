import { describe, expect, it } from "vitest";
import { describeUserAgent, presentEvent } from "./events";
import type { StoredEvent } from "../store/events";

describe("describeUserAgent", () => {
  it.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "PC / macOS / Chrome 124",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
      "PC / Windows / Edge 124",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
      "PC / Linux / Firefox 125",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Mobile / iOS 17 / Safari 17",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
      "Mobile / Android 14 / Chrome 124",
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
      "Tablet / iOS 16 / Safari 16",
    ],
    ["curl/8.5.0", "Other / Other / curl 8.5.0"],
    ["", "Other / Other / Other"],
  ])("%s", (ua, expected) => {
    expect(describeUserAgent(ua)).toBe(expected);
  });

  it("copes with a missing user agent", () => {
    expect(describeUserAgent(null)).toBe("Other / Other / Other");
  });
});

describe("presentEvent", () => {
  const base: StoredEvent = {
    id: 1,
    org_id: 1,
    user_id: 4,
    user_name: null,
    action: "view",
    object_type: "query",
    object_id: "9",
    additional_properties: {},
    created_at: "2024-05-01T10:20:30.123Z",
  };

  it("names the user from the event, the user row, or the id", () => {
    expect(
      presentEvent({ ...base, additional_properties: { user_name: "Stored" } }).user_name,
    ).toBe("Stored");
    expect(presentEvent({ ...base, user_name: "Current" }).user_name).toBe("Current");
    expect(presentEvent(base).user_name).toBe("User 4");
  });

  it("names API-key callers by the key's name, else Unknown", () => {
    const keyEvent = {
      ...base,
      user_id: null,
      additional_properties: { api_key: "ApiKey: Query 3" },
    };
    expect(presentEvent(keyEvent).user_name).toBe("ApiKey: Query 3");
    expect(presentEvent({ ...base, user_id: null }).user_name).toBe("Unknown");
  });

  it("gives details by kind of event", () => {
    expect(presentEvent(base).details).toEqual({ object_id: "9", object_type: "query" });
    expect(
      presentEvent({ ...base, object_type: "page", object_id: "home", additional_properties: {} })
        .details,
    ).toEqual({ page: "home" });
    expect(
      presentEvent({
        ...base,
        object_type: "page",
        object_id: null,
        additional_properties: { page: "queries" },
      }).details,
    ).toEqual({ page: "queries" });
    expect(
      presentEvent({
        ...base,
        action: "execute_query",
        object_type: "data_source",
        object_id: "2",
        additional_properties: { query: "select 1" },
      }).details,
    ).toEqual({ query: "select 1", data_source: "2" });
  });

  it("never passes on the stored properties themselves", () => {
    const out = presentEvent({
      ...base,
      additional_properties: { ip: "203.0.113.9", user_agent: "curl/8", secret: "x" },
    });
    expect(JSON.stringify(out)).not.toContain("203.0.113.9");
    expect(JSON.stringify(out)).not.toContain("secret");
    expect(out.location).toBe("Unknown");
  });
});
