import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config";
import { createServer } from "./server";
import { orgSetting } from "./services/orgSettings";
import { setUpOrganization } from "./services/organizationSetup";
import { openDatabase } from "./store/database";
import { DEFAULT_ORG_SLUG, findOrgBySlug, saveOrgSettings } from "./store/organizations";
import { TestClient } from "./testing/httpClient";

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../bin/sightline.js");

function sightline(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, SIGHTLINE_LOG_LEVEL: "error", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

// Each case starts real processes (tsx compiles on start): allow for a loaded machine.
describe("the sightline command", { timeout: 120_000 }, () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-cli-"));
    env = { SIGHTLINE_DATA_DIR: dataDir };
    const server = await createServer(loadConfig({ ...env, SIGHTLINE_LOG_LEVEL: "error" }));
    await setUpOrganization(server.ctx.database.db, {
      orgName: "Acme",
      name: "Admin",
      email: "admin@example.com",
      password: "admin-password",
    });
    await server.close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("creates an admin with a password, and refuses a duplicate", () => {
    const created = sightline(
      [
        "users",
        "create",
        "--admin",
        "--password",
        "cli-password",
        "cli@example.com",
        "Cli",
        "User",
      ],
      env,
    );
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Created admin user cli@example.com");
    const again = sightline(["users", "create", "CLI@example.com", "Someone"], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");
  });

  it("prints an invite link for a user without password", () => {
    const created = sightline(["users", "create", "invitee@example.com", "Invitee"], env);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/Invite link: http:\/\/127\.0\.0\.1:5000\/invite\/\S+/);
  });

  it("turns password login back on, keeping the other settings", async () => {
    const config = loadConfig(env);
    const open = async () => {
      const database = await openDatabase(config.databaseUrl);
      return { database, org: (await findOrgBySlug(database.db, DEFAULT_ORG_SLUG))! };
    };
    const before = await open();
    await saveOrgSettings(before.database.db, before.org.id, {
      ...before.org.settings,
      settings: { auth_password_login_enabled: false, auth_saml_enabled: true },
    });
    await before.database.close();

    const run = sightline(["org", "enable-password-login"], env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("Password login is enabled again for Acme.\n");
    const after = await open();
    expect(orgSetting(after.org, "auth_password_login_enabled")).toBe(true);
    expect(orgSetting(after.org, "auth_saml_enabled")).toBe(true);
    await after.database.close();
  });

  it("refuses bad arguments with usage", () => {
    const bad = sightline(["users", "create", "nope"], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Usage");
    const extra = sightline(["org", "enable-password-login", "now"], env);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toContain("sightline org enable-password-login");
  });

  it("stops the start with a message naming a bad variable", () => {
    const bad = sightline(["all"], { ...env, SIGHTLINE_PORT: "not-a-port" });
    expect(bad.status).toBe(78);
    expect(bad.stderr).toContain("SIGHTLINE_PORT");
  });

  it("serves on the configured port and keeps data across a restart", async () => {
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const start = () =>
      spawn(process.execPath, [BIN, "all"], {
        env: { ...process.env, ...env, SIGHTLINE_PORT: port, SIGHTLINE_LOG_LEVEL: "error" },
        stdio: ["ignore", "ignore", "pipe"],
      });
    // A cold start loads the TypeScript sources through tsx: each command above took 10-15 s
    // under CI's load, so the server is given a minute, and a child that exits fails at once.
    const waitUp = async (child: ReturnType<typeof start>) => {
      let stderr = "";
      child.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) {
          throw new Error(`server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
        }
        try {
          if ((await fetch(`http://127.0.0.1:${port}/ping`)).ok) return;
        } catch {
          /* not up yet */
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`server did not start within 60 s: ${stderr.slice(-2000)}`);
    };
    for (let round = 0; round < 2; round++) {
      const child = start();
      try {
        await waitUp(child);
        const client = new TestClient(`http://127.0.0.1:${port}`);
        expect((await client.login("cli@example.com", "cli-password")).status).toBe(302);
        expect((await client.get("/api/session")).body.user.email).toBe("cli@example.com");
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    }
  });
});
