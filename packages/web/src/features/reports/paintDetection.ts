// When a visualization has drawn, read from what it put on the page: the chart types' drawing
// code has loaded (no spinner), every ECharts canvas has a size, and the widget's content has
// stopped changing for a moment (charts lay out after their box is measured). A visualization
// that could not be drawn shows the renderers' error box instead.
import { useEffect, useState } from "react";

export type PaintCheck =
  { kind: "waiting" } | { kind: "painted" } | { kind: "failed"; error: string };

/** How long a widget's content must stay unchanged to count as drawn. */
export const QUIET_MS = 300;
const POLL_MS = 100;

/** Looks once at a widget's body: still waiting, drawn, or failed (with the error shown). */
export function inspectVisualization(body: HTMLElement): PaintCheck {
  const visualization = body.querySelector(".sightline-visualization");
  if (!visualization) return { kind: "waiting" };
  const failure = visualization.querySelector(".ant-alert-error");
  if (failure) {
    const title = failure.querySelector(".ant-alert-title, .ant-alert-message")?.textContent;
    const description = failure.querySelector(".ant-alert-description")?.textContent;
    return { kind: "failed", error: [title, description].filter(Boolean).join(" ") || "Error" };
  }
  if (visualization.querySelector(".ant-spin")) return { kind: "waiting" };
  for (const chart of visualization.querySelectorAll("[_echarts_instance_]")) {
    const canvas = chart.querySelector("canvas");
    if (!canvas || canvas.width === 0 || canvas.height === 0) return { kind: "waiting" };
  }
  return { kind: "painted" };
}

/**
 * Watches the element until its visualization has drawn (and stayed unchanged QUIET_MS) or
 * failed. `active` false: not watching (nothing to draw yet, or already settled).
 */
export function usePaintDetection(
  ref: React.RefObject<HTMLElement | null>,
  active: boolean,
): PaintCheck {
  const [check, setCheck] = useState<PaintCheck>({ kind: "waiting" });
  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    let lastChange = performance.now();
    const observer = new MutationObserver(() => {
      lastChange = performance.now();
    });
    observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = window.setInterval(() => {
      const seen = inspectVisualization(el);
      if (seen.kind === "failed") return finish(seen);
      if (seen.kind === "painted" && performance.now() - lastChange >= QUIET_MS) finish(seen);
    }, POLL_MS);
    function finish(result: PaintCheck) {
      window.clearInterval(timer);
      observer.disconnect();
      setCheck(result);
    }
    return () => {
      window.clearInterval(timer);
      observer.disconnect();
    };
  }, [active]);
  return check;
}
