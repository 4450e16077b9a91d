import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verify } from "@node-rs/argon2";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../config";
import { createServer, type RunningServer } from "../server";
import { dropPgSchema } from "../store/database";
import { TEST_PG_URL, metadataDatabases, postgresAvailable, randomName } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { insertUser } from "../store/users";
import { defaultGroupId } from "../services/organizationSetup";
import { hashPassword } from "./passwords";

// Counts argon2 verifications, the work that sign-in's timing is made of.
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...real, verify: vi.fn(real.verify) };
});

const DATABASES = await metadataDatabases();

/** A browser that carries only the given cookies, as someone replaying copied ones would. */
function browserWith(server: TestServer, cookies: Record<string, string>): TestClient {
  const client = new TestClient(server.url);
  for (const [name, value] of Object.entries(cookies)) client.cookies.set(name, value);
  return client;
}

describe.each(DATABASES)("sign-in hardening on %s", (db) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(db);
    await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server.close();
  });

  it("redirects to a non-ASCII next address percent-encoded, never a 500", async () => {
    const visitor = new TestClient(server.url);
    await visitor.get("/ping");
    const res = await visitor.request("POST", "/login?next=%E3%80%82evil.example", {
      form: {
        csrf_token: visitor.cookies.get("csrf_token")!,
        email: ADMIN.email,
        password: ADMIN.password,
      },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("%E3%80%82evil.example");
    // Signed in, the login page redirects at once.
    for (const [next, location] of [
      ["/queries?q=caf%C3%A9", "/queries?q=caf%C3%A9"],
      ["/queries?q=é ü", "/queries?q=%C3%A9%20%C3%BC"],
      ["https://evil.example/ü", "/%C3%BC"],
    ]) {
      const again = await visitor.get(`/login?next=${encodeURIComponent(next!)}`);
      expect(again.status, next).toBe(302);
      expect(again.headers.get("location"), next).toBe(location);
    }
  });

  it("refuses a session's copied cookies after its logout, and keeps other sessions", async () => {
    const browser = new TestClient(server.url);
    await browser.login(ADMIN.email, ADMIN.password);
    await browser.get("/api/session");
    const copied = {
      session: browser.cookies.get("session")!,
      remember_token: browser.cookies.get("remember_token")!,
    };
    expect(copied.remember_token).toBeTruthy();
    const copiedCsrf = browser.cookies.get("csrf_token")!;
    const other = new TestClient(server.url);
    await other.login(ADMIN.email, ADMIN.password);

    expect((await browser.get("/logout")).status).toBe(302);
    const replays: Record<string, string>[] = [
      copied,
      { session: copied.session },
      { remember_token: copied.remember_token },
    ];
    for (const cookies of replays) {
      const replayed = await browserWith(server, cookies).get("/api/session");
      expect(replayed.status, Object.keys(cookies).join("+")).toBe(404);
      expect(replayed.body.message).toContain("Please login");
    }
    // The copied session cannot write either, even with its CSRF token.
    const write = await browserWith(server, { ...copied, csrf_token: copiedCsrf }).post(
      "/api/queries",
      { name: "x" },
    );
    expect(write.status).toBe(404);
    expect(write.body.message).toContain("Please login");
    // Another sign-in of the same user goes on.
    expect((await other.get("/api/session")).status).toBe(200);
    // And the logged-out browser can sign in again.
    await browser.login(ADMIN.email, ADMIN.password);
    expect((await browser.get("/api/session")).status).toBe(200);
  });

  it("does the same password work for unknown, known and disabled accounts", async () => {
    const dbh = server.ctx.database.db;
    const org = (await findOrgBySlug(dbh, "default"))!;
    const groupIds = [await defaultGroupId(dbh, org.id)];
    await insertUser(dbh, {
      orgId: org.id,
      name: "Pending Pat",
      email: "pat@example.com",
      passwordHash: null,
      groupIds,
      invitationPending: true,
    });
    const disabled = await insertUser(dbh, {
      orgId: org.id,
      name: "Disabled Dan",
      email: "dan@example.com",
      passwordHash: await hashPassword("dans-password"),
      groupIds,
      invitationPending: false,
    });
    const admin = new TestClient(server.url);
    await admin.login(ADMIN.email, ADMIN.password);
    expect((await admin.post(`/api/users/${disabled.id}/disable`)).status).toBe(200);

    const verifications = vi.mocked(verify);
    for (const [email, password] of [
      ["nobody@example.com", "some password"],
      [ADMIN.email, "wrong password"],
      ["pat@example.com", "some password"],
      ["dan@example.com", "dans-password"],
    ]) {
      const before = verifications.mock.calls.length;
      const res = await new TestClient(server.url).login(email!, password!);
      expect(res.status, email).toBe(200);
      expect(res.text, email).toContain("Wrong email or password.");
      expect(verifications.mock.calls.length - before, email).toBe(1);
    }
  });
});

/** Scaled mode: several servers on one PostgreSQL metadata database and one secret key. */
describe.runIf(await postgresAvailable())("logout across servers", () => {
  const schema = randomName("t").toLowerCase();
  const secret = crypto.randomBytes(32).toString("hex");
  const servers: { running: RunningServer; url: string; dataDir: string }[] = [];

  async function startServer(): Promise<string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-test-"));
    const config = loadConfig({
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_PORT: "0",
      SIGHTLINE_LOG_LEVEL: "warn",
      SIGHTLINE_SECRET_KEY: secret,
      SIGHTLINE_DATABASE_URL: TEST_PG_URL,
    });
    const running = await createServer(config, { dbOptions: { pgSchema: schema } });
    await running.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(running.app.server.address() as AddressInfo).port}`;
    config.baseUrl = url;
    servers.push({ running, url, dataDir });
    return url;
  }

  afterAll(async () => {
    for (const server of servers) {
      await server.running.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await dropPgSchema(TEST_PG_URL, schema);
  });

  it("refuses a session's cookies on every server once it logged out on one", async () => {
    const first = await startServer();
    const second = await startServer();
    const browser = await setUpAndLogin(first);
    await browser.login(ADMIN.email, ADMIN.password);
    const copied = {
      session: browser.cookies.get("session")!,
      remember_token: browser.cookies.get("remember_token")!,
    };
    const onSecond = new TestClient(second);
    for (const [name, value] of Object.entries(copied)) onSecond.cookies.set(name, value);
    expect((await onSecond.get("/api/session")).status).toBe(200);

    expect((await browser.get("/logout")).status).toBe(302);
    const replay = new TestClient(second);
    for (const [name, value] of Object.entries(copied)) replay.cookies.set(name, value);
    expect((await replay.get("/api/session")).status).toBe(404);
  });
});
