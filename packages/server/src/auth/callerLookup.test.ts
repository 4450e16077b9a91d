import { afterAll, beforeAll, describe, expect, it } from "vitest";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../config";
import { createServer, type RunningServer } from "../server";
import { dropPgSchema } from "../store/database";
import { TEST_PG_URL, metadataDatabases, randomName } from "../testing/services";
import { startTestServer, type MetadataDb, type TestServer } from "../testing/testServer";
import { ADMIN, TestClient, ownApiKey, setUpAndLogin } from "../testing/httpClient";
import { PASSWORD } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

/**
 * Who is calling is read afresh on every request (store/callers.ts), only the organisation is kept
 * a few seconds (store/orgCache.ts): what a server does to a user, a session, a key or a group
 * membership is refused on the very next request to another server sharing the metadata store.
 */
describe.each(DATABASES)("refusals across two servers on one %s store", (db) => {
  const secret = crypto.randomBytes(32).toString("hex");
  const schema = randomName("t").toLowerCase();
  const servers: { running: RunningServer; dataDir: string }[] = [];
  let a: string;
  let b: string;
  let admin: TestClient;

  /** A server on the shared store (the first one's SQLite file, or one PostgreSQL schema). */
  async function startServer(databaseUrl: string | null): Promise<string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-test-"));
    const config = loadConfig({
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_PORT: "0",
      SIGHTLINE_LOG_LEVEL: "warn",
      SIGHTLINE_SECRET_KEY: secret,
      ...(databaseUrl ? { SIGHTLINE_DATABASE_URL: databaseUrl } : {}),
    });
    const running = await createServer(config, {
      dbOptions: db === "postgres" ? { pgSchema: schema } : {},
    });
    await running.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(running.app.server.address() as AddressInfo).port}`;
    config.baseUrl = url;
    servers.push({ running, dataDir });
    return url;
  }

  beforeAll(async () => {
    a = await startServer(db === "postgres" ? TEST_PG_URL : null);
    b = await startServer(
      db === "postgres" ? TEST_PG_URL : path.join(servers[0]!.dataDir, "sightline.db"),
    );
    admin = await setUpAndLogin(a);
  });
  afterAll(async () => {
    for (const server of servers.reverse()) {
      await server.running.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    if (db === "postgres") await dropPgSchema(TEST_PG_URL, schema);
  });

  /** A new user (invited by the admin on A, password set on the store), signed in on B. */
  async function userOnB(email: string): Promise<{ id: number; client: TestClient }> {
    const res = await admin.post<{ id: number }>("/api/users", { name: email, email });
    expect(res.status, res.text).toBe(200);
    const { id } = res.body;
    const { hashPassword } = await import("./passwords");
    const store = servers[0]!.running.ctx.database.db;
    await store
      .updateTable("users")
      .set({ password_hash: await hashPassword(PASSWORD), is_invitation_pending: false })
      .where("id", "=", id)
      .execute();
    const client = new TestClient(b);
    expect((await client.login(email, PASSWORD)).status).toBe(302);
    expect((await client.get("/api/session")).status).toBe(200);
    return { id, client };
  }

  it("refuses a user disabled on A at their next request to B", async () => {
    const { id, client } = await userOnB("dis@example.com");
    expect((await client.get("/api/queries")).status).toBe(200);
    expect((await admin.post(`/api/users/${id}/disable`)).status).toBe(200);
    expect((await client.get("/api/queries")).status).toBe(404);
    expect((await client.get("/api/session")).status).toBe(404);
  });

  it("refuses a session (and its remember-me cookie) signed out on A at once on B", async () => {
    const { client } = await userOnB("out@example.com");
    // The same browser on A: same cookies, as behind a load balancer.
    const onA = new TestClient(a);
    for (const [name, value] of client.cookies) onA.cookies.set(name, value);
    const copied = new Map(client.cookies);
    expect((await onA.get("/logout")).status).toBe(302);
    const replay = new TestClient(b);
    for (const [name, value] of copied) replay.cookies.set(name, value);
    expect((await replay.get("/api/queries")).status).toBe(404);
    // The remember-me cookie alone does not bring the ended session back either.
    const remembered = new TestClient(b);
    remembered.cookies.set("remember_token", copied.get("remember_token")!);
    expect((await remembered.get("/api/session")).status).toBe(404);
  });

  it("refuses an API key regenerated on A at its next use on B", async () => {
    const { id, client } = await userOnB("key@example.com");
    const oldKey = await ownApiKey(client);
    const script = new TestClient(b);
    script.apiKey = oldKey;
    expect((await script.get("/api/queries")).status).toBe(200);
    expect((await admin.post(`/api/users/${id}/regenerate_api_key`)).status).toBe(200);
    expect((await script.get("/api/queries")).status).toBe(404);
  });

  it("takes away on B what a group removed on A gave, at the next request", async () => {
    const { id, client } = await userOnB("grp@example.com");
    const groups = await admin.get<{ id: number; name: string }[]>("/api/groups");
    const adminGroup = groups.body.find((g) => g.name === "admin")!;
    expect((await admin.post(`/api/groups/${adminGroup.id}/members`, { user_id: id })).status).toBe(
      200,
    );
    expect((await client.get("/api/settings/organization")).status).toBe(200);
    const removed = await admin.delete(`/api/groups/${adminGroup.id}/members/${id}`);
    expect(removed.status).toBe(200);
    expect((await client.get("/api/settings/organization")).status).toBe(403);
    // Still signed in, with the default group's rights.
    expect((await client.get("/api/queries")).status).toBe(200);
  });

  it("sees an organisation setting saved on A on B within a few seconds", async () => {
    const before = await admin.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    const adminOnB = new TestClient(b);
    expect((await adminOnB.login(ADMIN.email, ADMIN.password)).status).toBe(302);
    const value = before.body.settings.date_format === "DD/MM/YY" ? "YYYY-MM-DD" : "DD/MM/YY";
    const saved = await admin.post("/api/settings/organization", { date_format: value });
    expect(saved.status, saved.text).toBe(200);
    const deadline = Date.now() + 10_000;
    let seen: unknown;
    while (Date.now() < deadline) {
      const res = await adminOnB.get<{ settings: Record<string, unknown> }>(
        "/api/settings/organization",
      );
      seen = res.body.settings.date_format;
      if (seen === value) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen).toBe(value);
  });
});

/**
 * The statements an authenticated request needs before its own work: one, whatever the store
 * (user, groups and ended-session check joined; the organisation from memory after the first).
 */
describe.each(DATABASES)("statements to know who is calling on %s", (db: MetadataDb) => {
  let server: TestServer;
  let admin: TestClient;
  let counting = false;
  let statements: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(
      db,
      {},
      { afterSetup: async () => {} },
      {
        onQuery: (text) => {
          // Event inserts are left out: they are written in batches, at any moment.
          if (counting && !/^insert into "events"/i.test(text)) statements.push(text);
        },
      },
    );
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The statements of the request with the fewest of three tries (the scheduler may interleave). */
  async function statementsOf(client: TestClient, url: string): Promise<string[]> {
    let fewest: string[] | null = null;
    for (let i = 0; i < 3; i += 1) {
      statements = [];
      counting = true;
      const res = await client.get(url);
      counting = false;
      expect(res.status).toBe(200);
      if (!fewest || statements.length < fewest.length) fewest = statements;
    }
    return fewest!;
  }

  it("reads the session's user, groups and ended check in one statement", async () => {
    const run = await statementsOf(admin, "/api/session");
    const identity = run.filter((s) => /"ended_sessions"|"user_groups"|from "groups"/.test(s));
    expect(identity).toHaveLength(1);
    expect(run.filter((s) => /from "organizations"/.test(s))).toHaveLength(0);
    expect(run.length, run.join("\n")).toBeLessThanOrEqual(1);
  });

  it("reads an API key's user and groups in one statement", async () => {
    const script = new TestClient(server.url);
    script.apiKey = await ownApiKey(admin);
    const run = await statementsOf(script, "/api/session");
    expect(run.length, run.join("\n")).toBeLessThanOrEqual(1);
  });
});
