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

  it("keeps ordinary relative addresses with queries", () => {
    expect(sanitizeNext("/dashboards/1-sales?p_w1_x=2")).toBe("/dashboards/1-sales?p_w1_x=2");
    expect(isSafeNext("queries?q=a:b")).toBe(true);
    expect(isSafeNext("/a%2Fb")).toBe(true);
  });
});
