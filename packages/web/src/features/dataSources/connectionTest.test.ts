import { describe, expect, it } from "vitest";
import { testNotice, TEST_FAILED, TEST_SUCCESS, TEST_UNKNOWN_ERROR } from "./connectionTest";

describe("testNotice", () => {
  it("says Success for an ok answer", () => {
    expect(testNotice({ ok: true, message: "success" })).toEqual({
      kind: "success",
      title: TEST_SUCCESS,
    });
  });

  it("shows the server's message for 10 s on failure", () => {
    expect(testNotice({ ok: false, message: "connection refused" })).toEqual({
      kind: "error",
      title: TEST_FAILED,
      description: "connection refused",
      duration: 10,
    });
  });

  it("has its own text when the call itself failed", () => {
    expect(testNotice(null)).toEqual({ kind: "error", title: TEST_UNKNOWN_ERROR });
  });
});
