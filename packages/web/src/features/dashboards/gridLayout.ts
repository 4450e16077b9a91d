// The dashboard grid's rules (spec 1 §9, spec 3 §9): its constants, a widget's position with the
// defaults filled in, where a new widget goes, and which widgets a layout change moved.
import type { WidgetPosition } from "../../api/dashboards";

export const GRID_COLUMNS = 6;
export const ROW_HEIGHT = 50;
export const GRID_MARGIN = 12;
export const DEFAULT_SIZE_X = 3;
export const DEFAULT_SIZE_Y = 3;
export const MIN_SIZE_X = 1;
export const MAX_SIZE_X = 6;
export const MIN_SIZE_Y = 1;
export const MAX_SIZE_Y = 1000;
/** Below this width the grid is one column (the spec leaves the width open; Redash uses 800). */
export const SINGLE_COLUMN_BELOW_PX = 800;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
const whole = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? Math.round(value) : fallback;

/** A stored position (possibly partial or from Redash) with every field set and kept in range. */
export function fullPosition(stored: Partial<WidgetPosition> | undefined): WidgetPosition {
  const p = stored ?? {};
  const minSizeX = clamp(whole(p.minSizeX, MIN_SIZE_X), MIN_SIZE_X, MAX_SIZE_X);
  const maxSizeX = clamp(whole(p.maxSizeX, MAX_SIZE_X), minSizeX, MAX_SIZE_X);
  const minSizeY = clamp(whole(p.minSizeY, MIN_SIZE_Y), MIN_SIZE_Y, MAX_SIZE_Y);
  const maxSizeY = clamp(whole(p.maxSizeY, MAX_SIZE_Y), minSizeY, MAX_SIZE_Y);
  const sizeX = clamp(whole(p.sizeX, DEFAULT_SIZE_X), minSizeX, maxSizeX);
  return {
    col: clamp(whole(p.col, 0), 0, GRID_COLUMNS - sizeX),
    row: Math.max(whole(p.row, 0), 0),
    sizeX,
    sizeY: clamp(whole(p.sizeY, DEFAULT_SIZE_Y), minSizeY, maxSizeY),
    minSizeX,
    maxSizeX,
    minSizeY,
    maxSizeY,
    autoHeight: p.autoHeight === true,
  };
}

/**
 * Where a widget of the given width goes: under the widgets already there, in the columns where
 * that is highest up (leftmost on a tie), as Redash places new widgets.
 */
export function newWidgetPosition(
  existing: readonly WidgetPosition[],
  sizeX = DEFAULT_SIZE_X,
  sizeY = DEFAULT_SIZE_Y,
): WidgetPosition {
  const width = clamp(sizeX, MIN_SIZE_X, GRID_COLUMNS);
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
  return fullPosition({ col: best.col, row: best.row, sizeX: width, sizeY });
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
    minH: position.minSizeY ?? MIN_SIZE_Y,
    maxH: position.maxSizeY ?? MAX_SIZE_Y,
  };
}

/**
 * The new positions of the widgets a layout change moved or resized, by widget id. A widget whose
 * height changed is no longer auto-height (spec 3 §4 Widget).
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
