// Starting and stopping a real server for a test file (InfluxDB, Prometheus): the program found
// where Debian installs it, run with its files in a temp folder, waited for, and cleaned up
// after, whether it started or not.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { waitUntil, type ChildHandle } from "./processes";

/** The program in /usr/bin or /usr/local/bin, or undefined when it is not installed. */
export function installedBinary(name: string): string | undefined {
  return [`/usr/bin/${name}`, `/usr/local/bin/${name}`].find((file) => existsSync(file));
}

export interface ServerStart {
  /** What the server is, for messages ("InfluxDB"). */
  name: string;
  url: string;
  /** The server's temp folder: removed when it fails to start and at stop. */
  dir: string;
  /** Starts the process (after any preparation of its files). */
  start(): Promise<ChildHandle> | ChildHandle;
  /** True once the server answers. */
  ready(): Promise<boolean>;
  /** Runs once it answers (users, databases). */
  setUp?(): Promise<void>;
}

/**
 * Starts the server and waits up to 30 s for it to answer (failing early when it exits), then
 * sets it up. When any of that fails the process is stopped, the folder removed, and the error
 * says "<name> did not start" with the process's output. `stop` ends it and removes the folder.
 */
export async function startServerProcess(server: ServerStart): Promise<{ stop(): Promise<void> }> {
  let handle: ChildHandle | null = null;
  try {
    handle = await server.start();
    const started = handle;
    await waitUntil(
      async () => !started.alive() || server.ready(),
      30_000,
      `${server.name} on ${server.url}`,
    );
    if (!started.alive()) throw new Error("the server exited");
    await server.setUp?.();
  } catch (error) {
    const output = handle?.output() ?? "";
    await handle?.stop(1000);
    await rm(server.dir, { recursive: true, force: true });
    throw new Error(`${server.name} did not start: ${(error as Error).message}\n${output}`, {
      cause: error,
    });
  }
  const running = handle;
  return {
    async stop() {
      await running.stop(5000);
      await rm(server.dir, { recursive: true, force: true });
    },
  };
}
