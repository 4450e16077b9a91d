import { describe, expect, it } from "vitest";
import { isSafeNext, sanitizeNext } from "./safeNext";

describe("sanitizeNext (api-platform §3.1 examples)", () => {
  it.each([
    ["queries", "queries"],
    ["/test", "/test"],
    ["https://redash.io", "./"],
    ["//redash.io", "./"],
    ["//localhost/queries", "/queries"],
    ["////evil.com", "./"],
    ["///evil.com/phish", "./"],
    ["////evil.com/callback?token=secret", "./"],
    ["file:https://evil.com/", "./"],
    ["javascript:alert(1)", "./"],
    ["http:///evil.com", "./"],
    ["/%5Cevil.com", "./"],
    ["data:text/html,<script>alert(1)</script>", "./"],
  ])("%s → %s", (next, expected) => {
    expect(sanitizeNext(next)).toBe(expected);
  });

  it("gives an empty string for no next", () => {
    expect(sanitizeNext("")).toBe("");
    expect(sanitizeNext(null)).toBe("");
    expect(sanitizeNext(undefined)).toBe("");
  });

  it("keeps path, query and fragment of absolute http(s) addresses", () => {
    expect(sanitizeNext("https://example.com/queries/1?p_x=1#tab")).toBe("/queries/1?p_x=1#tab");
    expect(sanitizeNext("https://example.com//evil.com")).toBe("./");
  });

  it("refuses backslash and control-character tricks", () => {
    expect(sanitizeNext("/\\evil.com")).toBe("./");
    expect(sanitizeNext("\\\\evil.com")).toBe("./");
    expect(sanitizeNext("/\t/evil.com")).toBe("./");
    expect(sanitizeNext(" //evil.com")).toBe("./");
    expect(sanitizeNext("   ")).toBe("./");
    expect(sanitizeNext("JavaScript:alert(1)")).toBe("./");
  });

  it("percent-encodes non-ASCII characters and spaces, as a Location header needs", () => {
    expect(sanitizeNext("\u3002evil.example")).toBe("%E3%80%82evil.example");
    expect(sanitizeNext("/queries?q=café au lait")).toBe("/queries?q=caf%C3%A9%20au%20lait");
    expect(sanitizeNext("https://evil.example/\u00e9")).toBe("/%C3%A9");
    expect(sanitizeNext("/a%2Fb")).toBe("/a%2Fb");
    // Not well-formed Unicode cannot be encoded: the index page instead.
    expect(sanitizeNext("/\ud800x")).toBe("./");
    // Full-width and ideographic look-alikes of "/" and "." never become a host.
    expect(sanitizeNext("\uff0f\uff0fevil.example")).toBe("%EF%BC%8F%EF%BC%8Fevil.example");
  });

  it("keeps ordinary relative addresses with queries", () => {
    expect(sanitizeNext("/dashboards/1-sales?p_w1_x=2")).toBe("/dashboards/1-sales?p_w1_x=2");
    expect(isSafeNext("queries?q=a:b")).toBe(true);
    expect(isSafeNext("/a%2Fb")).toBe(true);
  });
});
