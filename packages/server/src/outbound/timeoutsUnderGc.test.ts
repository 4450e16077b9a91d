import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = path.join(HERE, "timeoutsUnderGc.run.ts");
const TIMEOUT_MS = 300;

/**
 * Issue 24: on Node 20 a time-out made with `AbortSignal.any([AbortSignal.timeout(ms)])` was lost
 * when the timeout signal was garbage collected, and requests to a silent destination hung for
 * ever. A child `node --expose-gc` process sends rounds of 1,000 requests to a server that accepts
 * and never answers, collecting garbage while they wait: every one ends with a time-out, soon.
 */
describe("outbound time-outs under garbage collection", () => {
  it("ends every request to a silent server with its time-out", { timeout: 240_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--expose-gc", "--import", "tsx", SCRIPT],
      {
        cwd: HERE,
        // A lost time-out never fires: 30 s tells it from a slow one on a loaded machine.
        env: {
          ...process.env,
          CALLS: "1000",
          ROUNDS: "5",
          TIMEOUT_MS: String(TIMEOUT_MS),
          GIVE_UP_MS: "30000",
        },
        timeout: 220_000,
      },
    );
    const rounds = JSON.parse(stdout) as {
      outcomes: Record<string, number>;
      hung: number;
      slowest: number;
    }[];
    expect(
      rounds.map((round) => round.hung),
      stdout,
    ).toEqual([0, 0, 0, 0, 0]);
    for (const round of rounds) {
      expect(round.hung).toBe(0);
      expect(round.outcomes).toEqual({ "timed out": 1000 });
      // Soon after the time-out (generous: other test processes share the machine).
      expect(round.slowest).toBeLessThan(TIMEOUT_MS + 15_000);
    }
  });
});
