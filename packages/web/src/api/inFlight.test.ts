import { describe, expect, it } from "vitest";
import { InFlight } from "./inFlight";

describe("in-flight sharing", () => {
  it("answers identical calls under way with one call, and calls again once it ended", async () => {
    const inFlight = new InFlight<number>();
    let calls = 0;
    let finish: (n: number) => void = () => undefined;
    const call = () => {
      calls += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const a = inFlight.share("q1", call);
    const b = inFlight.share("q1", call);
    const other = inFlight.share("q2", () => Promise.resolve(7));
    expect(calls).toBe(1);
    finish(42);
    expect(await Promise.all([a, b, other])).toEqual([42, 42, 7]);
    inFlight.share("q1", call);
    expect(calls).toBe(2);
  });

  it("shares a failure too, and forgets it", async () => {
    const inFlight = new InFlight<number>();
    const failing = () => Promise.reject(new Error("down"));
    await expect(inFlight.share("q", failing)).rejects.toThrow("down");
    await expect(inFlight.share("q", () => Promise.resolve(1))).resolves.toBe(1);
  });
});
