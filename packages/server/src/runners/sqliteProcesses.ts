import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The SQLite runner's child processes (sqliteProcess.mjs). better-sqlite3 is synchronous and has
 * no interrupt, so each query runs in a child that can be killed; the children are kept for
 * reuse, since starting a Node process costs more than most queries.
 */

const CHILD_SCRIPT = fileURLToPath(new URL("./sqliteProcess.mjs", import.meta.url));

/** A child process of the pool, with what it wrote to stderr during its current job. */
export interface SqliteProcess {
  child: ChildProcess;
  stderr: string;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * Child processes whose last query ended normally wait here for the next one: starting a Node
 * process costs ~0.1 s, more than most queries. A killed process (cancel, time limit, a consumer
 * that stopped early) is never reused; idle ones are closed after a while.
 */
const idleProcesses: SqliteProcess[] = [];
const MAX_IDLE_PROCESSES = 2;
const IDLE_PROCESS_MS = 30_000;

const isAlive = (p: SqliteProcess) =>
  p.child.connected && p.child.exitCode === null && p.child.signalCode === null;

/** While a process is idle it does not keep the server (or a CLI command) running. */
function keepRunning(p: SqliteProcess, on: boolean): void {
  const handles = [p.child, p.child.channel, p.child.stderr] as ({
    ref?: () => void;
    unref?: () => void;
  } | null)[];
  for (const handle of handles) {
    if (on) handle?.ref?.();
    else handle?.unref?.();
  }
}

export function takeProcess(): SqliteProcess {
  for (let p = idleProcesses.pop(); p; p = idleProcesses.pop()) {
    if (p.idleTimer) clearTimeout(p.idleTimer);
    if (!isAlive(p)) continue;
    keepRunning(p, true);
    return p;
  }
  const child = fork(CHILD_SCRIPT, [], {
    serialization: "advanced",
    execArgv: [],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const p: SqliteProcess = { child, stderr: "", idleTimer: null };
  child.stderr?.on("data", (chunk: Buffer) => {
    if (p.stderr.length < 2000) p.stderr += chunk.toString();
  });
  // A failed fork or send is reported to the job through "exit"; this keeps it from throwing.
  child.on("error", () => undefined);
  return p;
}

/** Process ids of the idle processes, newest last (for tests). */
export function idleSqliteProcessIds(): number[] {
  return idleProcesses.filter(isAlive).map((p) => p.child.pid!);
}

export function killProcess(p: SqliteProcess): void {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
}

export function releaseProcess(p: SqliteProcess): void {
  if (!isAlive(p) || idleProcesses.length >= MAX_IDLE_PROCESSES) return killProcess(p);
  p.stderr = "";
  keepRunning(p, false);
  p.idleTimer = setTimeout(() => {
    const index = idleProcesses.indexOf(p);
    if (index >= 0) idleProcesses.splice(index, 1);
    killProcess(p);
  }, IDLE_PROCESS_MS);
  p.idleTimer.unref();
  idleProcesses.push(p);
}
