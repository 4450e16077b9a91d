import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import {
  DATA_SOURCE_GONE,
  refusedTest,
  testNotice,
  TEST_FAILED,
  TEST_SUCCESS,
  TEST_UNKNOWN_ERROR,
} from "./connectionTest";

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

  it("shows why the server refused to test a data source", () => {
    const refusal = new ApiError(400, "This data source points at Sightline's own metadata", {});
    expect(refusedTest(refusal)).toEqual({
      ok: false,
      message: "This data source points at Sightline's own metadata",
    });
    expect(refusedTest(new ApiError(500, undefined, null))).toBeNull();
    expect(refusedTest(new Error("offline"))).toBeNull();
  });

  it("says a data source deleted meanwhile (another tab) is gone", () => {
    const gone = new ApiError(404, "The requested URL was not found on the server.", {});
    expect(refusedTest(gone)).toEqual({ ok: false, message: DATA_SOURCE_GONE });
    expect(testNotice(refusedTest(gone))).toMatchObject({ description: DATA_SOURCE_GONE });
  });
});
