import type { ConnectionTestResult } from "../../api/dataSources";

export const TEST_SUCCESS = "Success";
export const TEST_FAILED = "Connection Test Failed:";
export const TEST_UNKNOWN_ERROR =
  "Unknown error occurred while performing connection test. Please try again later.";
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
