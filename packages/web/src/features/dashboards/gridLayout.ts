// The dashboard grid's rules (spec 1 §9, spec 3 §9): its constants, a widget's position with the
// defaults filled in, where a new widget goes, and which widgets a layout change moved.
import type { WidgetPosition } from "../../api/dashboards";

export const GRID_COLUMNS = 6;
/** One row's pitch, the margin under it included (as Redash counts it). */
export const ROW_HEIGHT = 50;
export const GRID_MARGIN = 12;
export const DEFAULT_SIZE_X = 3;
export const DEFAULT_SIZE_Y = 3;
export const MIN_SIZE_X = 1;
export const MAX_SIZE_X = 6;
export const MIN_SIZE_Y = 1;
export const MAX_SIZE_Y = 1000;
/** Auto-height widgets stored without a height start at least this tall, plus the extra rows. */
export const AUTO_HEIGHT_MIN_ROWS = 20;
export const AUTO_HEIGHT_EXTRA_ROWS = 5;
/** Below this width the grid is one column (the spec leaves the width open; Redash uses 800). */
export const SINGLE_COLUMN_BELOW_PX = 800;

/** A widget kind's size: its default, its limits and whether its height follows its content. */
export interface SizeRules {
  sizeX: number;
  sizeY: number;
  minSizeX: number;
  maxSizeX: number;
  minSizeY: number;
  maxSizeY: number;
  autoHeight: boolean;
}

/** Text boxes and any widget whose kind sets nothing: half the grid wide, three rows high. */
export const DEFAULT_RULES: SizeRules = {
  sizeX: DEFAULT_SIZE_X,
  sizeY: DEFAULT_SIZE_Y,
  minSizeX: MIN_SIZE_X,
  maxSizeX: MAX_SIZE_X,
  minSizeY: MIN_SIZE_Y,
  maxSizeY: MAX_SIZE_Y,
  autoHeight: false,
};

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
const whole = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? Math.round(value) : fallback;

/** Pixels a widget of `rows` rows takes on screen (the last row's margin is not the widget's). */
export function rowsToPixels(rows: number): number {
  return rows * ROW_HEIGHT - GRID_MARGIN;
}

/** The rows a widget needs to show `pixels` of content, within the grid's limits. */
export function pixelsToRows(pixels: number): number {
  return clamp(Math.ceil((pixels + GRID_MARGIN) / ROW_HEIGHT), MIN_SIZE_Y, MAX_SIZE_Y);
}

/**
 * The height an auto-height widget stored without one starts at (spec 1 §9): the tallest widget
 * of the dashboard, at least 20 rows, plus 5, so it overlaps nothing before it is measured.
 */
export function initialAutoHeightRows(stored: readonly (Partial<WidgetPosition> | undefined)[]) {
  const tallest = Math.max(0, ...stored.map((p) => whole(p?.sizeY, 0)));
  return Math.max(tallest, AUTO_HEIGHT_MIN_ROWS) + AUTO_HEIGHT_EXTRA_ROWS;
}

/**
 * A stored position (possibly partial or from Redash) with every field set. Place and size are
 * kept as stored (only forced into the grid); the limits are those of the widget's kind, and a
 * widget stored without an auto-height choice takes its kind's. A height below one row means
 * "auto" (Redash's convention): such a widget starts `autoRows` high.
 */
export function fullPosition(
  stored: Partial<WidgetPosition> | undefined,
  rules: SizeRules = DEFAULT_RULES,
  autoRows = AUTO_HEIGHT_MIN_ROWS + AUTO_HEIGHT_EXTRA_ROWS,
): WidgetPosition {
  const p = stored ?? {};
  const sizeX = clamp(whole(p.sizeX, rules.sizeX), MIN_SIZE_X, MAX_SIZE_X);
  const storedY = whole(p.sizeY, rules.sizeY);
  const sizeY = storedY < MIN_SIZE_Y ? autoRows : Math.min(storedY, MAX_SIZE_Y);
  const autoHeight =
    storedY < MIN_SIZE_Y || (typeof p.autoHeight === "boolean" ? p.autoHeight : rules.autoHeight);
  return {
    col: clamp(whole(p.col, 0), 0, GRID_COLUMNS - sizeX),
    row: Math.max(whole(p.row, 0), 0),
    sizeX,
    sizeY,
    // Limits never exclude the stored size, or the grid would snap the widget on first touch.
    minSizeX: Math.min(rules.minSizeX, sizeX),
    maxSizeX: Math.max(rules.maxSizeX, sizeX),
    minSizeY: Math.min(rules.minSizeY, sizeY),
    maxSizeY: Math.max(rules.maxSizeY, sizeY),
    autoHeight,
  };
}

/**
 * Where a new widget of the given kind goes, with its kind's default size: under the widgets
 * already there, in the columns where that is highest up (leftmost on a tie), as Redash places
 * new widgets.
 */
export function newWidgetPosition(
  existing: readonly WidgetPosition[],
  rules: SizeRules = DEFAULT_RULES,
): WidgetPosition {
  const width = clamp(rules.sizeX, MIN_SIZE_X, GRID_COLUMNS);
  const bottom = new Array<number>(GRID_COLUMNS).fill(0);
  for (const p of existing) {
    for (let c = Math.max(p.col, 0); c < Math.min(p.col + p.sizeX, GRID_COLUMNS); c += 1) {
      bottom[c] = Math.max(bottom[c], p.row + p.sizeY);
    }
  }
  let best = { col: 0, row: Infinity };
  for (let col = 0; col + width <= GRID_COLUMNS; col += 1) {
    const row = Math.max(...bottom.slice(col, col + width));
    if (row < best.row) best = { col, row };
  }
  return fullPosition({ ...rules, col: best.col, row: best.row, sizeX: width }, rules);
}

/** The grid library's item for a widget. */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW: number;
  maxW: number;
  minH: number;
  maxH: number;
}

export function toGridItem(id: number, position: WidgetPosition): GridItem {
  return {
    i: String(id),
    x: position.col,
    y: position.row,
    w: position.sizeX,
    h: position.sizeY,
    minW: position.minSizeX ?? MIN_SIZE_X,
    maxW: position.maxSizeX ?? MAX_SIZE_X,
    minH: Math.min(position.minSizeY ?? MIN_SIZE_Y, position.sizeY),
    maxH: Math.max(position.maxSizeY ?? MAX_SIZE_Y, position.sizeY),
  };
}

/**
 * The positions as shown: an auto-height widget takes the height its content was measured at
 * (`measured`, rows by widget id) instead of its stored one.
 */
export function shownPositions(
  positions: ReadonlyMap<number, WidgetPosition>,
  measured: ReadonlyMap<number, number>,
): Map<number, WidgetPosition> {
  const out = new Map<number, WidgetPosition>();
  for (const [id, p] of positions) {
    const rows = p.autoHeight ? measured.get(id) : undefined;
    out.set(id, rows === undefined || rows === p.sizeY ? p : { ...p, sizeY: rows });
  }
  return out;
}

/**
 * The new positions of the widgets a layout change moved or resized, by widget id (`current` is
 * what the grid showed). A widget whose height changed is no longer auto-height (spec 3 §4
 * Widget); one only moved stays auto.
 */
export function changedPositions(
  current: ReadonlyMap<number, WidgetPosition>,
  layout: readonly Pick<GridItem, "i" | "x" | "y" | "w" | "h">[],
): Map<number, WidgetPosition> {
  const out = new Map<number, WidgetPosition>();
  for (const item of layout) {
    const id = Number(item.i);
    const before = current.get(id);
    if (!before) continue;
    if (
      before.col === item.x &&
      before.row === item.y &&
      before.sizeX === item.w &&
      before.sizeY === item.h
    )
      continue;
    out.set(id, {
      ...before,
      col: item.x,
      row: item.y,
      sizeX: item.w,
      sizeY: item.h,
      autoHeight: before.autoHeight && before.sizeY === item.h,
    });
  }
  return out;
}

/** Widgets top to bottom, left to right: the order of the one-column phone layout. */
export function readingOrder<T extends { position: WidgetPosition }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => a.position.row - b.position.row || a.position.col - b.position.col,
  );
}

/**
 * The one-column phone layout as grid items: the widgets in reading order, one under the other,
 * each as high as its position says. The phone shows the same grid as a wide screen, only with one column, so
 * a change of width moves the widgets without mounting them again (and re-running their queries).
 */
export function singleColumnItems(
  widgets: readonly { id: number; position: WidgetPosition }[],
): GridItem[] {
  let y = 0;
  return readingOrder(widgets).map(({ id, position }) => {
    const h = position.sizeY;
    const item = { i: String(id), x: 0, y, w: 1, h, minW: 1, maxW: 1, minH: h, maxH: h };
    y += h;
    return item;
  });
}
