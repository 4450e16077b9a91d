import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing/testServer";
import { setUpAndLogin } from "./testing/httpClient";

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Waits for a condition, polling; the machine may be slow. */
async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The data folder a fresh embedded installation creates (SQLite metadata, no key configured):
 * the folder, and everything in it, readable by its owner only, whatever the process's umask.
 */
describe("the data folder of a new installation", () => {
  let parent: string;
  let dataDir: string;
  let server: TestServer;
  const oldUmask = process.umask(0o022);

  beforeAll(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-datadir-"));
    fs.chmodSync(parent, 0o755);
    dataDir = path.join(parent, "var", "data");
    server = await startTestServer("sqlite", {
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_SECRET_KEY: "",
    });
    const admin = await setUpAndLogin(server.url);
    await waitFor(async () => {
      const list =
        await admin.get<{ name: string; paused: number | boolean }[]>("/api/data_sources");
      return list.body.some((d) => d.name === "Demo" && !d.paused);
    }, "the Demo data");
  });
  afterAll(async () => {
    process.umask(oldUmask);
    await server?.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it("is created 0700, with its files 0600", () => {
    expect(mode(dataDir).toString(8)).toBe("700");
    expect(mode(path.join(parent, "var")).toString(8)).toBe("700");
    expect(mode(path.join(dataDir, "files")).toString(8)).toBe("700");
    for (const name of ["sightline.db", "secret_key", "files/demo.duckdb"]) {
      expect(mode(path.join(dataDir, name)).toString(8), name).toBe("600");
    }
    // SQLite's side files follow the database file.
    for (const name of ["sightline.db-wal", "sightline.db-shm"]) {
      const file = path.join(dataDir, name);
      if (fs.existsSync(file)) expect(mode(file).toString(8), name).toBe("600");
    }
  });
});
