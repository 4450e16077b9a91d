// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { notify } from "../../app/notifications";
import { stubMatchMedia } from "../../testing/matchMedia";
import { FavoriteToggle } from "./FavoriteToggle";

vi.mock("../../app/notifications", () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

/** A save whose calls are answered by the test, one by one. */
function manualSave() {
  const calls: { favorite: boolean; answer: () => void; fail: (message: string) => void }[] = [];
  const save = vi.fn(
    (favorite: boolean) =>
      new Promise<void>((resolve, reject) =>
        calls.push({ favorite, answer: resolve, fail: (m) => reject(new Error(m)) }),
      ),
  );
  return { save, calls };
}

const star = () => screen.getByTestId("favorite-star");
const pressed = () => star().getAttribute("aria-pressed");

beforeEach(() => stubMatchMedia());
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe("the favorite star", () => {
  it("sends a double click's second toggle only after the first has been saved", async () => {
    const { save, calls } = manualSave();
    const onChange = vi.fn();
    render(<FavoriteToggle value={false} save={save} onChange={onChange} />);
    fireEvent.click(star());
    fireEvent.click(star());
    expect(pressed()).toBe("false");
    expect(calls.map((c) => c.favorite)).toEqual([true]);
    await act(async () => calls[0]!.answer());
    expect(calls.map((c) => c.favorite)).toEqual([true, false]);
    await act(async () => calls[1]!.answer());
    expect(onChange.mock.calls).toEqual([[true], [false]]);
    expect(pressed()).toBe("false");
  });

  it("sends clicks made during a save as one call for where the star ended", async () => {
    const { save, calls } = manualSave();
    render(<FavoriteToggle value={false} save={save} />);
    fireEvent.click(star());
    fireEvent.click(star());
    fireEvent.click(star());
    await act(async () => calls[0]!.answer());
    // Three clicks: the star ends on, which the first call already saved.
    expect(calls.map((c) => c.favorite)).toEqual([true]);
    expect(pressed()).toBe("true");
  });

  it("turns back to what the server holds when a save fails, and says why", async () => {
    const { save, calls } = manualSave();
    render(<FavoriteToggle value={false} save={save} />);
    fireEvent.click(star());
    fireEvent.click(star());
    await act(async () => calls[0]!.answer());
    await act(async () => calls[1]!.fail("Network down"));
    expect(pressed()).toBe("true");
    expect(notify.error).toHaveBeenCalledWith("Network down");
    fireEvent.click(star());
    expect(calls.map((c) => c.favorite)).toEqual([true, false, false]);
  });

  it("shows a new value from its owner when no save of its own is on its way", () => {
    const { save } = manualSave();
    const { rerender } = render(<FavoriteToggle value={false} save={save} />);
    rerender(<FavoriteToggle value={true} save={save} />);
    expect(pressed()).toBe("true");
  });
});
