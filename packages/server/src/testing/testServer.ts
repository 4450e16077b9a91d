import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { loadConfig, type Config } from "../config";
import { startExecution, type RunningExecution } from "../execution/runtime";
import { createServer, type RunningServer } from "../server";
import { dropPgSchema, type OpenOptions } from "../store/database";
import type { AppHooks } from "../context";
import { TEST_PG_URL, randomName } from "./services";

export type MetadataDb = "sqlite" | "postgres";

export interface TestServer extends RunningServer {
  url: string;
  dataDir: string;
  config: Config;
  /** PostgreSQL only: the schema that holds this server's metadata store. */
  pgSchema?: string;
}

/**
 * A real Sightline server on a free port, with its own metadata store: a SQLite file in a temp
 * folder, or a fresh schema in the test PostgreSQL database. `webDist`: the built web app it
 * serves (default packages/web/dist).
 */
export async function startTestServer(
  db: MetadataDb = "sqlite",
  env: Record<string, string> = {},
  hooks: Partial<AppHooks> = {},
  dbOptions: Omit<OpenOptions, "pgSchema"> = {},
  webDist?: string,
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-test-"));
  const schema = db === "postgres" ? randomName("t").toLowerCase() : undefined;
  const config = loadConfig({
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_PORT: "0",
    SIGHTLINE_LOG_LEVEL: "warn",
    SIGHTLINE_SECRET_KEY: crypto.randomBytes(32).toString("hex"),
    ...(db === "postgres" ? { SIGHTLINE_DATABASE_URL: TEST_PG_URL } : {}),
    ...env,
  });
  return listening(config, dataDir, { ...dbOptions, pgSchema: schema }, true, hooks, webDist);
}

/**
 * Another server on a PostgreSQL test server's metadata store, with the same secret key: scaled
 * mode's second `sightline server` behind a load balancer. Close it before the first.
 */
export async function startServerBeside(first: TestServer): Promise<TestServer> {
  if (!first.pgSchema) throw new Error("a second server shares a PostgreSQL store only");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-test-"));
  const config = loadConfig({
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_PORT: "0",
    SIGHTLINE_LOG_LEVEL: "warn",
    ...(first.config.secretKey ? { SIGHTLINE_SECRET_KEY: first.config.secretKey } : {}),
    SIGHTLINE_DATABASE_URL: TEST_PG_URL,
  });
  return listening(config, dataDir, { pgSchema: first.pgSchema }, false);
}

/** A server on `config` listening on a free port; its close drops its schema if it `owns` it. */
async function listening(
  config: Config,
  dataDir: string,
  dbOptions: OpenOptions,
  owns: boolean,
  hooks: Partial<AppHooks> = {},
  webDist?: string,
): Promise<TestServer> {
  const server = await createServer(config, { dbOptions, hooks, webDist });
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = server.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // Links in emails and API answers point at the running test server.
  config.baseUrl = url;
  const schema = dbOptions.pgSchema;
  return {
    ...server,
    url,
    dataDir,
    config,
    pgSchema: schema,
    async close() {
      await server.close();
      if (schema && owns) await dropPgSchema(TEST_PG_URL, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A `sightline worker` process's part for a scaled-mode test server (which runs no worker of its
 * own): queries, alerts and reports from the server's queue, no scheduler.
 */
export function startTestWorker(server: TestServer): Promise<RunningExecution> {
  return startExecution(
    {
      config: server.config,
      db: server.ctx.database.db,
      keys: server.ctx.keys,
      resultLimits: server.config.resultLimits,
      log: server.ctx.log,
    },
    { worker: true, scheduler: false },
  );
}

/**
 * A server whose log lines are kept, on 127.0.0.1: for the tests that check what is logged (at
 * start-up, at a refusal) and that no secret is in it.
 */
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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-logged-"));
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
