import { describe, expect, it } from "vitest";
import { canExecuteQuery } from "./canExecuteQuery";

const runner = { permissions: ["execute_query" as const] };
const viewer = { permissions: ["view_query" as const] };
const full = { view_only: false };
const viewOnly = { view_only: true };

describe("canExecuteQuery", () => {
  it("lets anyone who sees a saved safe query run it", () => {
    const saved = { isNew: false, isSafe: true };
    expect(canExecuteQuery(viewer, saved, viewOnly)).toBe(true);
    expect(canExecuteQuery(runner, saved, viewOnly)).toBe(true);
  });

  it("needs execute_query and full access for unsafe or new text", () => {
    for (const query of [
      { isNew: false, isSafe: false },
      { isNew: true, isSafe: true },
    ]) {
      expect(canExecuteQuery(runner, query, full)).toBe(true);
      expect(canExecuteQuery(runner, query, viewOnly)).toBe(false);
      expect(canExecuteQuery(viewer, query, full)).toBe(false);
    }
  });
});
