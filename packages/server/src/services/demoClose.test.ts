// Closing a server while setup's demo work (the data file, its data source, the demo queries) is
// still going: the close waits for it, so nothing is logged as failed and nothing is left behind.
import { afterEach, describe, expect, it, vi } from "vitest";
import { setUpAndLogin } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";
import { demoAfterSetup } from "./demoDataSource";

describe("closing a server during the demo setup", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("waits for the demo work, quietly, before closing the store", async () => {
    // Setup itself makes no demo here; the test starts it and closes at once.
    server = await startTestServer("sqlite", {}, { afterSetup: async () => undefined });
    await setUpAndLogin(server.url);
    const org = await server.ctx.database.db
      .selectFrom("organizations")
      .select("id")
      .executeTakeFirstOrThrow();
    const error = vi.spyOn(server.ctx.log, "error");
    const warn = vi.spyOn(server.ctx.log, "warn");
    let settled = false;
    void demoAfterSetup(server.ctx, org.id).then(() => (settled = true));
    const closing = server;
    server = undefined;
    await closing.close();
    expect(settled).toBe(true);
    expect(error.mock.calls).toEqual([]);
    expect(warn.mock.calls).toEqual([]);
  });
});
