// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HelpDrawer, useHelpDrawer } from "./HelpDrawer";

function HelpButton() {
  const help = useHelpDrawer();
  return (
    <>
      <button onClick={help.openHelp}>Help</button>
      <HelpDrawer open={help.open} onClose={help.close} url="/docs/index.html" />
    </>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    }) as unknown as MediaQueryList;
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("help drawer", () => {
  it("opens 300 ms after the click and shows Loading... until the page loads", () => {
    render(<HelpButton />);
    fireEvent.click(screen.getByText("Help"));
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByTestId("help-drawer")).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId("help-drawer")).toBeTruthy();
    expect(screen.getByText("Loading...")).toBeTruthy();
    fireEvent.load(screen.getByTitle("Help"));
    expect(screen.queryByText("Loading...")).toBeNull();
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.queryByText("Something went wrong.")).toBeNull();
  });

  it("gives up after 20 s without load, offering the page in a new window", () => {
    render(<HelpDrawer open onClose={() => undefined} url="/docs/index.html" />);
    act(() => vi.advanceTimersByTime(19_999));
    expect(screen.queryByText("Something went wrong.")).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText("Something went wrong.")).toBeTruthy();
    const link = screen.getByText("Open the page in a new window").closest("a");
    expect(link?.getAttribute("href")).toBe("/docs/index.html");
    expect(link?.getAttribute("target")).toBe("_blank");
  });
});
