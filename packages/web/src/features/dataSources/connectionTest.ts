import type { ConnectionTestResult } from "../../api/dataSources";
import { isApiError } from "../../api/errors";

export const TEST_SUCCESS = "Success";
export const TEST_FAILED = "Connection Test Failed:";
export const TEST_UNKNOWN_ERROR =
  "Unknown error occurred while performing connection test. Please try again later.";
/** A Save or Test of a data source deleted since its page opened (in another tab). */
export const DATA_SOURCE_GONE = "This data source no longer exists: it was deleted.";
/** A failed test stays on screen for 10 s (spec 2 §9). */
export const TEST_FAILURE_SECONDS = 10;

export interface TestNotice {
  kind: "success" | "error";
  title: string;
  description?: string;
  duration?: number;
}

/** What the Test Connection button shows for an answer (or for a failed call: `null`). */
export function testNotice(result: ConnectionTestResult | null): TestNotice {
  if (!result) return { kind: "error", title: TEST_UNKNOWN_ERROR };
  if (result.ok) return { kind: "success", title: TEST_SUCCESS };
  return {
    kind: "error",
    title: TEST_FAILED,
    description: result.message,
    duration: TEST_FAILURE_SECONDS,
  };
}

/**
 * A failed test call as a test answer: the server refuses options no data source may use (the
 * metadata database, another source's files) with a 400 and says why; a data source deleted
 * meanwhile is a 404, said as such; other failures are `null`.
 */
export function refusedTest(error: unknown): ConnectionTestResult | null {
  if (isApiError(error) && error.status === 404) return { ok: false, message: DATA_SOURCE_GONE };
  if (isApiError(error) && error.status === 400 && error.serverMessage) {
    return { ok: false, message: error.serverMessage };
  }
  return null;
}
