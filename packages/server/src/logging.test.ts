import { Writable } from "node:stream";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";
import { createServer } from "./server";
import { redactUrl } from "./logging";
import { ADMIN, TestClient, setUpAndLogin } from "./testing/httpClient";

describe("redactUrl", () => {
  it("removes keys and tokens", () => {
    expect(redactUrl("/api/queries/1/results.csv?api_key=abc&x=1")).toBe(
      "/api/queries/1/results.csv?api_key=[redacted]&x=1",
    );
    expect(redactUrl("/invite/tok.en?x=1")).toBe("/invite/[redacted]?x=1");
    expect(redactUrl("/public/dashboards/SECRET")).toBe("/public/dashboards/[redacted]");
  });
});

describe("logs", () => {
  it("never contain passwords, hashes, API keys, cookies or the secret key", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-log-"));
    const secret = crypto.randomBytes(32).toString("hex");
    const config = loadConfig({
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_LOG_LEVEL: "trace",
      SIGHTLINE_SECRET_KEY: secret,
    });
    const server = await createServer(config, { logDestination: sink });
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    try {
      const admin = await setUpAndLogin(url);
      const session = await admin.get("/api/session");
      const row = await server.ctx.database.db
        .selectFrom("users")
        .selectAll()
        .executeTakeFirstOrThrow();
      const byKey = new TestClient(url);
      await byKey.get(`/api/session?api_key=${row.api_key}`);
      byKey.apiKey = row.api_key;
      await byKey.get("/api/session");
      await new TestClient(url).login(ADMIN.email, "a wrong password");
      const all = lines.join("");
      expect(all).toContain("incoming request");
      for (const secretValue of [
        ADMIN.password,
        row.password_hash!,
        row.api_key,
        row.session_token,
        secret,
        admin.cookies.get("session")!,
      ]) {
        expect(all).not.toContain(secretValue);
      }
      expect(session.status).toBe(200);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
