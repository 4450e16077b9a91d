// What the print view tells the headless browser that takes its picture (issue 28): each
// widget's state on its wrapper (data-report-state), and once every widget has settled,
// `document.documentElement.dataset.reportReady = "true"` with `window.__reportWidgets`.
import { useCallback, useEffect, useRef, useState } from "react";
import type { ReportWidgetState } from "../../api/reports";

export type PrintWidgetState = "pending" | ReportWidgetState;

export interface ReportWidgetEntry {
  widget_id: number;
  name: string;
  state: ReportWidgetState;
  error: string | null;
}

/** How long a widget may take to draw before it is drawn as "did not finish". */
export const WIDGET_BUDGET_MS = 15_000;

declare global {
  interface Window {
    __reportWidgets?: ReportWidgetEntry[];
  }
}

/** Marks the page ready for its picture, with the widgets' outcome. */
export function announceReady(widgets: ReportWidgetEntry[]): void {
  window.__reportWidgets = widgets;
  document.documentElement.dataset.reportReady = "true";
}

/** The outcome of every widget, in the order given, or null while some are still pending. */
export function settledWidgets(
  order: readonly { id: number; name: string }[],
  states: ReadonlyMap<number, { state: PrintWidgetState; error: string | null }>,
): ReportWidgetEntry[] | null {
  const out: ReportWidgetEntry[] = [];
  for (const { id, name } of order) {
    const entry = states.get(id);
    if (!entry || entry.state === "pending") return null;
    out.push({ widget_id: id, name, state: entry.state, error: entry.error });
  }
  return out;
}

/** Runs `fn` after the browser has painted twice (the last state is on screen). */
function afterPaint(fn: () => void): () => void {
  let second = 0;
  const first = requestAnimationFrame(() => {
    second = requestAnimationFrame(fn);
  });
  return () => {
    cancelAnimationFrame(first);
    cancelAnimationFrame(second);
  };
}

/**
 * Collects the widgets' states; announces the page ready once all have settled and the browser
 * has painted that. `widgets` null: nothing to wait for yet (the data is loading).
 */
export function useReportReadiness(widgets: readonly { id: number; name: string }[] | null) {
  const [states, setStates] = useState<
    ReadonlyMap<number, { state: PrintWidgetState; error: string | null }>
  >(new Map());
  const announced = useRef(false);

  const report = useCallback((id: number, state: PrintWidgetState, error: string | null) => {
    setStates((current) => {
      const before = current.get(id);
      if (before?.state === state && before.error === error) return current;
      // A settled widget stays settled: the picture may already be taken.
      if (before && before.state !== "pending" && state === "pending") return current;
      return new Map(current).set(id, { state, error });
    });
  }, []);

  const settled = widgets ? settledWidgets(widgets, states) : null;
  const key = settled ? JSON.stringify(settled) : null;
  useEffect(() => {
    if (!settled || announced.current) return;
    return afterPaint(() => {
      announced.current = true;
      announceReady(settled);
    });
  }, [key]);

  return { report, settled: settled !== null };
}
