import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The `sightline` command, run through tsx like the installed one. */
export const SIGHTLINE_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../bin/sightline.js",
);

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ChildHandle {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts a command as a child process, keeping its output for the test to read. */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
): ChildHandle {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    alive,
    async stop(graceMs = 5000) {
      if (!alive()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `sightline <command>` with the given environment added to this process's. */
export function startSightline(command: string, env: Record<string, string>): ChildHandle {
  return startProcess(process.execPath, [SIGHTLINE_BIN, command], { ...process.env, ...env });
}

/** Polls `check` until it is true or `timeoutMs` passes (then throws with `what`). */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits for a Sightline server's /ping, failing early if its process died. */
export async function waitForServer(
  url: string,
  handle: ChildHandle,
  timeoutMs = 90_000,
): Promise<void> {
  await waitUntil(
    async () => {
      if (!handle.alive()) return true;
      return (await fetch(`${url}/ping`)).ok;
    },
    timeoutMs,
    `${url}/ping`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${handle.output()}`);
  });
  if (!handle.alive()) throw new Error(`the server exited:\n${handle.output()}`);
}
