// Widgets draw their visualizations one per frame. A dashboard's results arrive together (cached
// ones at once), and mounting 30 charts and tables in one go blocks the page for most of a second;
// taking turns keeps every frame short while the widgets fill in (issue 16: no frame over 200 ms).
import { useEffect, useState } from "react";

/** Waiting draws, served one per frame. */
export class PaintTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** `nextFrame` runs its callback once the browser has painted the current frame. */
  constructor(private readonly nextFrame: (callback: () => void) => void) {}

  /** Queues a draw; the returned function withdraws it (a widget gone before its turn). */
  request(draw: () => void): () => void {
    this.waiting.push(draw);
    this.schedule();
    return () => {
      const at = this.waiting.indexOf(draw);
      if (at >= 0) this.waiting.splice(at, 1);
    };
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    this.nextFrame(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}

/** After the next paint: an animation frame, then a task (a hidden page gets no frames). */
export function afterPaint(callback: () => void) {
  if (typeof requestAnimationFrame !== "function" || document.hidden) setTimeout(callback, 0);
  else requestAnimationFrame(() => setTimeout(callback, 0));
}

const turns = new PaintTurns(afterPaint);

/** False until `ready` and this widget's turn has come; then true for good. */
export function usePaintTurn(ready: boolean): boolean {
  const [granted, setGranted] = useState(false);
  useEffect(() => {
    if (!ready || granted) return;
    return turns.request(() => setGranted(true));
  }, [ready, granted]);
  return granted;
}

/**
 * How many of `total` widgets to mount: `perFrame` at first, then `perFrame` more after each
 * paint, so a large dashboard's cards do not all mount in one long task.
 */
export function useMountedCount(total: number, perFrame: number): number {
  const [count, setCount] = useState(perFrame);
  useEffect(() => {
    if (count >= total) return;
    let active = true;
    afterPaint(() => {
      if (active) setCount((c) => c + perFrame);
    });
    return () => {
      active = false;
    };
  }, [count, total, perFrame]);
  return Math.min(count, total);
}
