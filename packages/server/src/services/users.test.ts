import { describe, expect, it } from "vitest";
import { emailDomain, normalizeEmail } from "./users";

describe("normalizeEmail", () => {
  it("trims and lower-cases good addresses", () => {
    expect(normalizeEmail("  User@Example.COM ")).toBe("user@example.com");
    expect(normalizeEmail("first.last+tag@sub.example.org")).toBe("first.last+tag@sub.example.org");
  });

  it.each(["", "no-at-sign", "@example.com", "user@", "two words@example.com"])(
    "refuses the malformed %j",
    (email) => {
      expect(normalizeEmail(email)).toBeNull();
    },
  );

  it.each([
    "a@mailinator.com",
    "a@MAILINATOR.COM",
    "a@mailinator.com.",
    "a@guerrillamail.com",
    "a@10minutemail.com",
    "a@temp-mail.org",
    "a@yopmail.com",
    "a@qq.com",
  ])("refuses the disposable or blocked %s", (email) => {
    expect(normalizeEmail(email)).toBeNull();
  });

  it("refuses only the listed domains, not their look-alikes", () => {
    expect(normalizeEmail("a@notqq.com")).toBe("a@notqq.com");
    expect(normalizeEmail("a@qq.com.example.com")).toBe("a@qq.com.example.com");
  });

  it("uses the operator's block list when given (config.blockedEmailDomains)", () => {
    expect(normalizeEmail("a@spam.example", ["spam.example"])).toBeNull();
    expect(normalizeEmail("a@qq.com", [])).toBe("a@qq.com");
  });
});

describe("emailDomain", () => {
  it("takes the part after the last @, lower-cased, without a trailing dot", () => {
    expect(emailDomain("x@Example.COM.")).toBe("example.com");
  });
});
