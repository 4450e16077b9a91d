// Resident memory of the browser processes this process started (Linux /proc): the renderer
// recycles a browser above its cap, and the status page shows the figure.
import fs from "node:fs";

function readStat(pid: number): { ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: fields follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

function rssBytes(pid: number): number {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? pages * 4096 : 0;
  } catch {
    return 0;
  }
}

/** Whether a process is a browser's: its program's name holds "chrom" (chromium, chrome). */
function isBrowserProcess(pid: number): boolean {
  try {
    const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
    return /chrom/i.test(argv0.split("/").pop() ?? "");
  } catch {
    return false;
  }
}

/**
 * The summed resident memory of the descendants of `rootPid` that `counts` (0 where /proc is
 * missing); every descendant when no filter is given.
 */
export function descendantsRss(
  rootPid: number,
  counts: (pid: number) => boolean = () => true,
): number {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    const pid = Number(name);
    const stat = readStat(pid);
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(pid);
    children.set(stat.ppid, list);
  }
  let total = 0;
  const stack = [...(children.get(rootPid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (counts(pid)) total += rssBytes(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/**
 * The browser processes' memory: descendants of this process that are a browser's (not the
 * query runners' child processes). All of this process's browsers together.
 */
export function browserRss(): number {
  return descendantsRss(process.pid, isBrowserProcess);
}
