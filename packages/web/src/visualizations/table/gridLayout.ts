// The table's column grid: the same track sizes for the header and every (virtualized) row.

/** A column's least width, and at most how much wider than another it may grow. */
const NORMAL = { min: 110, share: 1 };
/** JSON and images need room. */
const WIDE = { min: 160, share: 2 };
/** The scroll box's width per column beyond the columns' least widths. */
const SLACK = 10;
/** Narrower than this a column is of little use: the table scrolls sideways instead. */
const NARROWEST = 64;

export interface GridLayout {
  template: string;
  /** The rows' least width: wider than the box, the table scrolls sideways. */
  minWidth: number;
}

/**
 * Columns get their least widths and share the rest. When those do not fit the box by a little
 * (a phone showing three or four columns), the columns share the box instead, down to 64 px
 * each: a sideways scroll of a few pixels hid the end of right-aligned numbers ("155" read "15")
 * with nothing to say the table went on. Text that does not fit a column ends in "…".
 */
export function gridLayout(wide: readonly boolean[], boxWidth: number): GridLayout {
  const sizes = wide.map((w) => (w ? WIDE : NORMAL));
  const minWidth = sizes.reduce((sum, s) => sum + s.min + SLACK, 0);
  const fitsShared = boxWidth > 0 && boxWidth / Math.max(1, sizes.length) >= NARROWEST;
  if (boxWidth > 0 && minWidth > boxWidth && fitsShared) {
    return { template: sizes.map((s) => `minmax(0, ${s.share}fr)`).join(" "), minWidth: 0 };
  }
  return { template: sizes.map((s) => `minmax(${s.min}px, ${s.share}fr)`).join(" "), minWidth };
}
