// Moving through a chart's values with the keyboard: the arrow keys step along a series (left and
// right) or between series (up and down), Home and End go to its ends. Pure, so it is unit-tested
// without a canvas; EChart applies the result (highlight, tooltip, click).

/** A value of the chart: the series and the index of the value within it, as ECharts counts. */
export interface ChartFocus {
  seriesIndex: number;
  dataIndex: number;
}

/** Series kinds whose values are a flat list, so dataIndex i is the series' i-th value. */
const FLAT_SERIES = new Set(["bar", "line", "scatter", "effectScatter", "pie", "funnel"]);

/** How many values each series has that the keyboard can reach (0 for series it skips). */
export function reachableCounts(series: unknown): number[] {
  if (!Array.isArray(series)) return [];
  return series.map((s: unknown) => {
    const { type, data } = (s ?? {}) as { type?: unknown; data?: unknown };
    return typeof type === "string" && FLAT_SERIES.has(type) && Array.isArray(data)
      ? data.length
      : 0;
  });
}

/** The next series with values, from `from` in `step` direction; null when there is none. */
function seriesFrom(counts: readonly number[], from: number, step: 1 | -1): number | null {
  for (let i = from; i >= 0 && i < counts.length; i += step) if (counts[i]! > 0) return i;
  return null;
}

/**
 * Where a key moves the focus; null for a key that does not move it. With nothing focused yet
 * any arrow key, Home or End starts at the first value of the first series.
 */
export function moveFocus(
  key: string,
  focus: ChartFocus | null,
  counts: readonly number[],
): ChartFocus | null {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key))
    return null;
  const first = seriesFrom(counts, 0, 1);
  if (first === null) return null;
  if (!focus || !(counts[focus.seriesIndex]! > 0)) return { seriesIndex: first, dataIndex: 0 };
  const { seriesIndex } = focus;
  const last = counts[seriesIndex]! - 1;
  // The series may have shrunk since (new rows): start from its end.
  const dataIndex = Math.min(focus.dataIndex, last);
  switch (key) {
    case "ArrowRight":
      return { seriesIndex, dataIndex: Math.min(last, dataIndex + 1) };
    case "ArrowLeft":
      return { seriesIndex, dataIndex: Math.max(0, dataIndex - 1) };
    case "Home":
      return { seriesIndex, dataIndex: 0 };
    case "End":
      return { seriesIndex, dataIndex: last };
    default: {
      const step = key === "ArrowDown" ? 1 : -1;
      const next = seriesFrom(counts, seriesIndex + step, step) ?? seriesIndex;
      return { seriesIndex: next, dataIndex: Math.min(dataIndex, counts[next]! - 1) };
    }
  }
}
