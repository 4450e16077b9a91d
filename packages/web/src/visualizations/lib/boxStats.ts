// Box plot statistics: quartiles by linear interpolation, whiskers at 1.5 × IQR.

export interface BoxStats {
  /** [lower whisker, Q1, median, Q3, upper whisker] */
  box: [number, number, number, number, number];
  outliers: number[];
}

function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function boxStats(values: readonly number[]): BoxStats | null {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const q1 = quantile(sorted, 0.25);
  const median = quantile(sorted, 0.5);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  const lowFence = q1 - 1.5 * iqr;
  const highFence = q3 + 1.5 * iqr;
  const inside = sorted.filter((v) => v >= lowFence && v <= highFence);
  return {
    box: [inside[0] ?? q1, q1, median, q3, inside[inside.length - 1] ?? q3],
    outliers: sorted.filter((v) => v < lowFence || v > highFence),
  };
}
