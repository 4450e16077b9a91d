/**
 * Test set-up shared by the sign-in methods' tests: a server on 127.0.0.1 whose log lines are
 * kept, for the tests that check what a refusal logs (and that no secret is in it).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { loadConfig, type Config } from "../../config";
import { createServer } from "../../server";

export interface LoggedServer {
  url: string;
  config: Config;
  /** Every log line so far, in order. */
  lines: string[];
  /** The log lines written since `from` (an earlier `lines.length`), joined. */
  logSince(from?: number): string;
  close(): Promise<void>;
}

/** A server at info level on a fresh SQLite data folder, its base URL its own address. */
export async function startLoggedServer(env: Record<string, string> = {}): Promise<LoggedServer> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-sso-log-"));
  const config = loadConfig({
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "info",
    SIGHTLINE_SECRET_KEY: crypto.randomBytes(32).toString("hex"),
    ...env,
  });
  const server = await createServer(config, { logDestination: sink, background: false });
  const close = async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.app.listen({ port: 0, host: "127.0.0.1" });
  } catch (err) {
    await close();
    throw err;
  }
  const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  config.baseUrl = url;
  return { url, config, lines, logSince: (from = 0) => lines.slice(from).join(""), close };
}
