// A widget's place on the dashboard grid (`options.position`), checked before it is stored: a
// negative column, a string or 1e308 would be kept and break the grid of everyone who opens it.
import { badRequest } from "./errors";

/** The dashboard grid (spec 1 §9): 6 columns; a widget 1 to 6 columns wide, at most 1000 rows high. */
export const GRID_COLUMNS = 6;
export const MAX_SIZE_Y = 1000;
/** The last row a widget may start on: far below any real dashboard, far inside a safe number. */
export const MAX_ROW = 1_000_000;

/**
 * The numeric fields of a position and their whole-number ranges. Any field may be absent or
 * null (the web app fills in defaults), and other keys are kept as sent: Redash's stored JSON and
 * clients such as redash-toolbelt copy positions as they find them.
 */
const RANGES: Record<string, readonly [number, number]> = {
  col: [0, GRID_COLUMNS - 1],
  row: [0, MAX_ROW],
  sizeX: [1, GRID_COLUMNS],
  // Redash stores an auto-height widget's height as -1.
  sizeY: [-1, MAX_SIZE_Y],
  minSizeX: [0, GRID_COLUMNS],
  maxSizeX: [0, GRID_COLUMNS],
  minSizeY: [0, MAX_SIZE_Y],
  maxSizeY: [0, MAX_SIZE_Y],
};

/** Throws a 400 naming the field when `position` (a widget's options.position) is not a grid place. */
export function checkPosition(position: unknown): void {
  if (position === undefined || position === null) return;
  if (typeof position !== "object" || Array.isArray(position)) {
    throw badRequest("options.position must be an object.");
  }
  const fields = position as Record<string, unknown>;
  for (const [key, [min, max]] of Object.entries(RANGES)) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    // JSON's 3.0 arrives as 3: whole numbers written as floats pass.
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw badRequest(`options.position.${key} must be a whole number from ${min} to ${max}.`);
    }
  }
  const autoHeight = fields.autoHeight;
  if (autoHeight !== undefined && autoHeight !== null && typeof autoHeight !== "boolean") {
    throw badRequest("options.position.autoHeight must be true or false.");
  }
}
