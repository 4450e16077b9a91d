// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useSerialSaves } from "./useSerialSaves";

describe("serial dashboard saves", () => {
  it("a second save sent before the first answered waits and carries the first's new version", async () => {
    const { result } = renderHook(({ version }) => useSerialSaves(version), {
      initialProps: { version: 3 },
    });
    const sent: number[] = [];
    let answerFirst!: () => void;
    const first = result.current((version) => {
      sent.push(version);
      return new Promise<{ version: number }>((resolve) => {
        answerFirst = () => resolve({ version: version + 1 });
      });
    });
    const second = result.current(async (version) => {
      sent.push(version);
      return { version: version + 1 };
    });
    await Promise.resolve();
    expect(sent).toEqual([3]);
    answerFirst();
    await expect(first).resolves.toEqual({ version: 4 });
    await expect(second).resolves.toEqual({ version: 5 });
    expect(sent).toEqual([3, 4]);
  });

  it("a failed save does not stop the next one; a newer loaded version is used", async () => {
    const { result, rerender } = renderHook(({ version }) => useSerialSaves(version), {
      initialProps: { version: 1 },
    });
    await expect(result.current(() => Promise.reject(new Error("down")))).rejects.toThrow("down");
    rerender({ version: 7 });
    const sent: number[] = [];
    await result.current(async (version) => {
      sent.push(version);
      return { version: version + 1 };
    });
    expect(sent).toEqual([7]);
  });
});
