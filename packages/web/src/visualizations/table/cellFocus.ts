// Keyboard access to a table's clickable cells (cross-filtering, drill-down; issue 19). The table
// is one tab stop (roving focus): Tab reaches one cell, the arrow keys move between cells,
// Home/End go to a row's ends, and Enter or Space act as a click. The rows are virtualized, so
// only rows on screen exist: the tab stop is the last focused cell while its row is drawn, else
// the same column in the first row drawn.
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";

export interface CellPosition {
  row: number;
  column: number;
}

/** The cell a key moves focus to from `at`, in a page of `rows` × `columns`; null for other keys. */
export function movedCell(
  key: string,
  at: CellPosition,
  rows: number,
  columns: number,
): CellPosition | null {
  const row = (r: number) => Math.min(Math.max(r, 0), rows - 1);
  const column = (c: number) => Math.min(Math.max(c, 0), columns - 1);
  switch (key) {
    case "ArrowUp":
      return { row: row(at.row - 1), column: at.column };
    case "ArrowDown":
      return { row: row(at.row + 1), column: at.column };
    case "ArrowLeft":
      return { row: at.row, column: column(at.column - 1) };
    case "ArrowRight":
      return { row: at.row, column: column(at.column + 1) };
    case "Home":
      return { row: at.row, column: 0 };
    case "End":
      return { row: at.row, column: column(columns - 1) };
    default:
      return null;
  }
}

/** The focusable cell's attribute: its column's index (its row carries `data-index`). */
export const CELL_COLUMN_ATTRIBUTE = "data-column";

interface CellFocusOptions {
  rows: number;
  columns: number;
  /** Indexes of the rows drawn now, top to bottom. */
  drawn: readonly number[];
  /** The table's scroll box, where the cells are found. */
  box: RefObject<HTMLElement | null>;
  /** Brings a row not drawn into view (the virtualizer then draws it). */
  scrollToRow: (row: number) => void;
}

export interface CellFocus {
  tabIndex(row: number, column: number): 0 | -1;
  /** Keys on a cell: arrows move focus, Enter and Space call `activate` (Ctrl/⌘ adds). */
  onKeyDown(
    row: number,
    column: number,
    activate: (additive: boolean) => void,
  ): (event: KeyboardEvent<HTMLElement>) => void;
  /** A cell focused (by a click too) becomes the tab stop. */
  onFocus(row: number, column: number): () => void;
}

export function useCellFocus({ rows, columns, drawn, box, scrollToRow }: CellFocusOptions) {
  const [active, setActive] = useState<CellPosition>({ row: 0, column: 0 });
  // A cell the keyboard moved to, focused once it is drawn.
  const pending = useRef<CellPosition | null>(null);
  useEffect(() => {
    const target = pending.current;
    if (!target) return;
    const cell = box.current?.querySelector<HTMLElement>(
      `[role=row][data-index="${target.row}"] > [${CELL_COLUMN_ATTRIBUTE}="${target.column}"]`,
    );
    if (!cell) return;
    pending.current = null;
    cell.focus();
  });

  // Fewer rows than before (a filter, a search): the tab stop stays inside the page.
  const activeRow = Math.min(active.row, rows - 1);
  const stopRow = drawn.includes(activeRow) ? activeRow : drawn[0];
  const stopColumn = Math.min(active.column, columns - 1);

  const focus: CellFocus = {
    tabIndex: (row, column) => (row === stopRow && column === stopColumn ? 0 : -1),
    onKeyDown: (row, column, activate) => (event) => {
      // Keys inside a cell's link or JSON tree stay theirs.
      if (event.target !== event.currentTarget) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate(event.ctrlKey || event.metaKey);
        return;
      }
      const next = movedCell(event.key, { row, column }, rows, columns);
      if (!next) return;
      event.preventDefault();
      pending.current = next;
      setActive(next);
      if (!drawn.includes(next.row)) scrollToRow(next.row);
    },
    onFocus: (row, column) => () =>
      setActive((current) =>
        current.row === row && current.column === column ? current : { row, column },
      ),
  };
  return focus;
}
