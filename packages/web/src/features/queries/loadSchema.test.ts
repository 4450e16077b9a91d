import { describe, expect, it, vi } from "vitest";
import { loadDatabases, loadSchema, SCHEMA_REFRESH_FAILED } from "./loadSchema";

const TIMEOUT =
  "Timed out after 2 s while reading the metric names from Prometheus at http://p:9090.";

/** A failed schema job as the server answers it (schemaFailures.ts). */
function failedJob(id: string, message: string, details?: string) {
  return { job: { id, status: 4, error: { code: 2, message, details }, result: null } };
}

vi.mock("../../api/dataSources", async (original) => ({
  ...(await original<typeof import("../../api/dataSources")>()),
  getDataSourceSchema: vi.fn(async (id: number) =>
    id === 1
      ? failedJob("schema-failed", "Error retrieving schema", TIMEOUT)
      : failedJob("schema-failed", "Error retrieving schema"),
  ),
}));
vi.mock("../../api/queries", async (original) => ({
  ...(await original<typeof import("../../api/queries")>()),
  getSchemaDatabases: vi.fn(async () =>
    failedJob("databases-failed", "Error retrieving database list.", TIMEOUT),
  ),
}));

describe("schema failures shown by the schema browser", () => {
  it("keep the data source's details, which name what timed out", async () => {
    await expect(loadSchema(1)).rejects.toThrow(`${SCHEMA_REFRESH_FAILED} ${TIMEOUT}`);
    await expect(loadDatabases(1)).rejects.toThrow(`Error retrieving database list. ${TIMEOUT}`);
  });

  it("read as before without details", async () => {
    await expect(loadSchema(2)).rejects.toThrow(new Error(SCHEMA_REFRESH_FAILED));
  });
});
