// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HelpDrawer, useHelpDrawer } from "./HelpDrawer";
import { stubMatchMedia } from "../testing/matchMedia";

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
  stubMatchMedia();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** What the frame shows once "loaded" (jsdom loads no frames). */
function showDocument(frame: HTMLElement, path: string, contentType: string) {
  const href = new URL(path, window.location.href).href;
  Object.defineProperty(frame, "contentWindow", { value: { location: { href } } });
  Object.defineProperty(frame, "contentDocument", { value: { contentType } });
}

describe("help drawer", () => {
  it("opens 300 ms after the click and shows Loading... until the page loads", () => {
    render(<HelpButton />);
    fireEvent.click(screen.getByText("Help"));
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByTestId("help-drawer")).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId("help-drawer")).toBeTruthy();
    expect(screen.getByText("Loading...")).toBeTruthy();
    showDocument(screen.getByTitle("Help"), "/docs/index.html", "text/html");
    fireEvent.load(screen.getByTitle("Help"));
    expect(screen.queryByText("Loading...")).toBeNull();
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.queryByText("Something went wrong.")).toBeNull();
  });

  it("shows the failure at once when the frame loads an error instead of the page", () => {
    for (const [path, type] of [
      ["chrome-error://chromewebdata/", "text/html"],
      ["/docs/index.html", "application/json"],
    ] as const) {
      render(<HelpDrawer open onClose={() => undefined} url="/docs/index.html" />);
      const frame = screen.getByTitle("Help");
      if (path.startsWith("chrome-error:")) {
        Object.defineProperty(frame, "contentWindow", { value: { location: { href: path } } });
        Object.defineProperty(frame, "contentDocument", { value: { contentType: type } });
      } else {
        showDocument(frame, path, type);
      }
      fireEvent.load(frame);
      expect(screen.getByText("Something went wrong.")).toBeTruthy();
      cleanup();
    }
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
