// @vitest-environment jsdom
// A box drawn only after the first render (a chart given its rows late) is still measured.
import { act, cleanup, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, expect, it, vi } from "vitest";
import { useElementSize } from "./useElementSize";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A ResizeObserver that reports, on demand, a size for every element it observes. */
function stubObserver() {
  const observed: { el: Element; report: (w: number, h: number) => void }[] = [];
  class Observer {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(el: Element) {
      observed.push({
        el,
        report: (width, height) =>
          this.callback(
            [{ contentRect: { width, height } } as ResizeObserverEntry],
            this as unknown as ResizeObserver,
          ),
      });
    }
    disconnect() {}
    unobserve() {}
  }
  vi.stubGlobal("ResizeObserver", Observer);
  return observed;
}

function Box({ drawn }: { drawn: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const { width, height } = useElementSize(ref);
  return (
    <>
      <span data-testid="size">{`${width}x${height}`}</span>
      {drawn && <div ref={ref} data-testid="box" />}
    </>
  );
}

it("measures a box that appears after the first render", () => {
  const observed = stubObserver();
  const { rerender } = render(<Box drawn={false} />);
  expect(observed).toHaveLength(0);
  rerender(<Box drawn />);
  expect(observed.map((o) => o.el)).toEqual([screen.getByTestId("box")]);
  act(() => observed[0].report(640, 300));
  expect(screen.getByTestId("size").textContent).toBe("640x300");
});

it("measures a box there from the start", () => {
  const observed = stubObserver();
  render(<Box drawn />);
  expect(observed.map((o) => o.el)).toEqual([screen.getByTestId("box")]);
  act(() => observed[0].report(200, 100));
  expect(screen.getByTestId("size").textContent).toBe("200x100");
});
