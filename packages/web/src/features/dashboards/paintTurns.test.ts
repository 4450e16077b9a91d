import { describe, expect, it } from "vitest";
import { PaintTurns } from "./paintTurns";

describe("paint turns", () => {
  it("serves one waiting draw per frame, in order, and skips withdrawn ones", () => {
    const frames: (() => void)[] = [];
    const turns = new PaintTurns((callback) => frames.push(callback));
    const drawn: string[] = [];
    turns.request(() => drawn.push("a"));
    const withdraw = turns.request(() => drawn.push("b"));
    turns.request(() => drawn.push("c"));
    expect(frames).toHaveLength(1); // one frame asked for, however many wait
    withdraw();
    frames.shift()!();
    expect(drawn).toEqual(["a"]);
    frames.shift()!();
    expect(drawn).toEqual(["a", "c"]);
    expect(frames).toHaveLength(0);
    // A later request starts the frames again.
    turns.request(() => drawn.push("d"));
    frames.shift()!();
    expect(drawn).toEqual(["a", "c", "d"]);
  });
});
