import { describe, expect, it } from "vitest";
import { parseCookie } from "./cookies";

describe("parseCookie", () => {
  it("finds a cookie by exact name and decodes it", () => {
    const header = "x_csrf_token=no; csrf_token=a%2Bb.c; session=s";
    expect(parseCookie(header, "csrf_token")).toBe("a+b.c");
    expect(parseCookie(header, "session")).toBe("s");
    expect(parseCookie(header, "missing")).toBeUndefined();
    expect(parseCookie("", "csrf_token")).toBeUndefined();
  });
});
