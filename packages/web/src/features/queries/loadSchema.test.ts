import { describe, expect, it, vi } from "vitest";
import { ApiError, CONNECTION_FAILED_MESSAGE } from "../../api/errors";
import {
  loadDatabases,
  loadSchema,
  loadTables,
  SCHEMA_REFRESH_FAILED,
  schemaRefreshFailure,
} from "./loadSchema";

const TIMEOUT =
  "Timed out after 2 s while reading the metric names from Prometheus at http://p:9090.";

/** A failed schema job as the server answers it (schemaFailures.ts). */
function failedJob(id: string, message: string, details?: string) {
  return { job: { id, status: 4, error: { code: 2, message, details }, result: null } };
}

/** Data source 1's reads fail with details, 2's without, 3's never reach the server. */
const lost = () => new ApiError(0, undefined, null, CONNECTION_FAILED_MESSAGE);

vi.mock("../../api/dataSources", async (original) => ({
  ...(await original<typeof import("../../api/dataSources")>()),
  getDataSourceSchema: vi.fn(async (id: number) => {
    if (id === 3) throw lost();
    return id === 1
      ? failedJob("schema-failed", "Error retrieving schema", TIMEOUT)
      : failedJob("schema-failed", "Error retrieving schema");
  }),
}));
vi.mock("../../api/queries", async (original) => ({
  ...(await original<typeof import("../../api/queries")>()),
  getSchemaDatabases: vi.fn(async (id: number) => {
    if (id === 3) throw lost();
    return failedJob("databases-failed", "Error retrieving database list.", TIMEOUT);
  }),
  getSchemaTables: vi.fn(async () => failedJob("tables-failed", "Error retrieving schema.")),
}));

describe("schema failures shown by the schema browser", () => {
  it("say the spec's words, then the data source's details, which name what timed out", async () => {
    await expect(loadSchema(1)).rejects.toThrow(`${SCHEMA_REFRESH_FAILED} ${TIMEOUT}`);
    await expect(loadDatabases(1)).rejects.toThrow(`Failed to load Database list. ${TIMEOUT}`);
  });

  it("read as the spec's words alone without details", async () => {
    await expect(loadSchema(2)).rejects.toThrow(new Error(SCHEMA_REFRESH_FAILED));
    await expect(loadTables(2, "sales")).rejects.toThrow(
      new Error("Failed to load tables for sales."),
    );
  });

  it("say the spec's words before a lost connection's message", async () => {
    await expect(loadSchema(3)).rejects.toThrow(
      `${SCHEMA_REFRESH_FAILED} ${CONNECTION_FAILED_MESSAGE}`,
    );
    await expect(loadDatabases(3)).rejects.toThrow(
      `Failed to load Database list. ${CONNECTION_FAILED_MESSAGE}`,
    );
  });
});

describe("the notice of a failed Refresh", () => {
  it("always starts with the spec's text, whichever load failed", async () => {
    const lazy = await loadDatabases(1).catch((error: unknown) => error);
    expect(schemaRefreshFailure(lazy)).toBe(`${SCHEMA_REFRESH_FAILED} ${TIMEOUT}`);
    const whole = await loadSchema(1).catch((error: unknown) => error);
    expect(schemaRefreshFailure(whole)).toBe(`${SCHEMA_REFRESH_FAILED} ${TIMEOUT}`);
    expect(schemaRefreshFailure(lost())).toBe(
      `${SCHEMA_REFRESH_FAILED} ${CONNECTION_FAILED_MESSAGE}`,
    );
    expect(schemaRefreshFailure("odd")).toBe(SCHEMA_REFRESH_FAILED);
  });
});
