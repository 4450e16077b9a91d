import { describe, expect, it } from "vitest";
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  DEFAULT_QUERY_REFRESH_INTERVALS,
  dateFormatList,
  dateTimeFormat,
  effectiveSettings,
  isOrganizationSettingKey,
  timeFormatList,
} from "./settings";

describe("organisation settings (api-platform §8)", () => {
  it("has the documented defaults", () => {
    // The specification's default, four-digit years (Redash's is DD/MM/YY).
    expect(DEFAULT_ORGANIZATION_SETTINGS.date_format).toBe("YYYY-MM-DD");
    expect(DEFAULT_ORGANIZATION_SETTINGS.time_format).toBe("HH:mm");
    expect(DEFAULT_ORGANIZATION_SETTINGS.thousands_separator).toBe(",");
    expect(DEFAULT_ORGANIZATION_SETTINGS.decimal_separator).toBe(".");
    expect(DEFAULT_ORGANIZATION_SETTINGS.auth_password_login_enabled).toBe(true);
    expect(DEFAULT_ORGANIZATION_SETTINGS.auth_jwt_auth_algorithms).toEqual([
      "HS256",
      "RS256",
      "ES256",
    ]);
  });

  it("merges stored values and leaves out null ones", () => {
    const s = effectiveSettings({ thousands_separator: " ", beacon_consent: null, unknown_key: 1 });
    expect(s.thousands_separator).toBe(" ");
    expect(s.decimal_separator).toBe(".");
    expect("beacon_consent" in s).toBe(false);
    expect("unknown_key" in s).toBe(false);
    expect(effectiveSettings({ beacon_consent: false }).beacon_consent).toBe(false);
  });

  it("recognises keys", () => {
    expect(isOrganizationSettingKey("date_format")).toBe(true);
    expect(isOrganizationSettingKey("toString")).toBe(false);
  });
});

describe("client_config defaults (api-platform §4.1)", () => {
  it("lists formats without duplicates", () => {
    expect(dateFormatList()).toEqual(["DD/MM/YY", "MM/DD/YY", "YYYY-MM-DD"]);
    expect(dateFormatList("DD.MM.YYYY")).toHaveLength(4);
    expect(timeFormatList("HH:mm")).toEqual(["HH:mm", "HH:mm:ss", "HH:mm:ss.SSS"]);
    expect(dateTimeFormat(DEFAULT_ORGANIZATION_SETTINGS)).toBe("YYYY-MM-DD HH:mm");
  });

  it("offers refresh intervals up to 30 days", () => {
    expect(DEFAULT_QUERY_REFRESH_INTERVALS[0]).toBe(60);
    expect(DEFAULT_QUERY_REFRESH_INTERVALS.at(-1)).toBe(2592000);
    expect(DEFAULT_QUERY_REFRESH_INTERVALS).toHaveLength(21);
  });
});
