// A performance mark set once a visualization's first frame with data is on screen, so browser
// tests and benchmarks can time rendering from navigation or from the result's arrival.
export const RENDERED_MARK = "sightline:visualization-rendered";

/** Sets the mark on the next animation frame (after the browser has painted the update). */
export function markRendered(type: string): void {
  if (typeof performance === "undefined" || typeof requestAnimationFrame === "undefined") return;
  requestAnimationFrame(() => performance.mark(RENDERED_MARK, { detail: { type } }));
}
