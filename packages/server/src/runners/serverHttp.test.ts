import { describe, expect, it } from "vitest";
import { seconds } from "./serverHttp";

describe("seconds, as a timeout message says them", () => {
  it("keeps one decimal below ten seconds and drops a trailing .0", () => {
    expect(seconds(1500)).toBe("1.5");
    expect(seconds(2000)).toBe("2");
    expect(seconds(1999)).toBe("2");
    expect(seconds(1940)).toBe("1.9");
    expect(seconds(300)).toBe("0.3");
  });

  it("says whole seconds from ten on", () => {
    expect(seconds(9960)).toBe("10");
    expect(seconds(10_000)).toBe("10");
    expect(seconds(29_500)).toBe("30");
  });
});
