/**
 * Run by timeoutsUnderGc.test.ts in a child `node --expose-gc` process: many requests to a
 * server that accepts connections and never answers, with garbage collections forced while they
 * wait. Prints one JSON line: how each request ended and how long the slowest took.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createOutboundClient } from "./client";

const CALLS = Number(process.env.CALLS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 1000);
/** Past this, a request counts as hung (it lost its time-out). */
const GIVE_UP_MS = Number(process.env.GIVE_UP_MS ?? 5_000);

const collect = globalThis.gc;
if (!collect) throw new Error("Run with node --expose-gc");

const sockets = new Set<net.Socket>();
const silent = net.createServer((socket) => {
  sockets.add(socket);
  socket.on("error", () => {});
  socket.on("close", () => sockets.delete(socket));
});
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", 4096, resolve));
const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;

const client = createOutboundClient({ allowedRanges: ["127.0.0.1/32"], timeoutMs: TIMEOUT_MS });

/** One round of CALLS requests at once; resolves when all ended or GIVE_UP_MS passed. */
async function round() {
  const started = Date.now();
  const outcomes: Record<string, number> = {};
  let slowest = 0;
  let pending = CALLS;
  const count = (outcome: string) => {
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    slowest = Math.max(slowest, Date.now() - started);
    pending -= 1;
  };
  for (let i = 0; i < CALLS; i += 1) {
    client.request(url, { method: "POST", body: "{}" }).then(
      () => count("answered"),
      (error: Error) => count(/timed out/.test(error.message) ? "timed out" : error.message),
    );
  }
  // Collect garbage while the requests wait, as a busy server would.
  const collector = setInterval(() => collect!(), 20);
  while (pending > 0 && Date.now() - started < GIVE_UP_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  clearInterval(collector);
  return { outcomes: { ...outcomes }, hung: pending, slowest };
}

// Several rounds: once the request code is optimised, V8 no longer keeps values the code does
// not use again alive in a waiting async function, which is when a weakly held signal is lost.
const rounds = [];
for (let i = 0; i < ROUNDS; i += 1) {
  const result = await round();
  rounds.push(result);
  if (result.hung > 0) break;
}
process.stdout.write(JSON.stringify(rounds) + "\n");
for (const socket of sockets) socket.destroy();
silent.close();
process.exit(0);
