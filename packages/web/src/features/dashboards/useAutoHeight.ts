// Auto-height widgets (spec 3 §4, §9): every 200 ms, each such widget's content is measured and
// the rows it needs reported, so its card grows or shrinks with its table, details or cohort.
import { useEffect, useState, type RefObject } from "react";
import { pixelsToRows } from "./gridLayout";

export const AUTO_HEIGHT_POLL_MS = 200;
/** The grid marks auto-height cells with this class; their card then takes its content's height. */
export const AUTO_HEIGHT_CLASS = "widget-auto-height";

/**
 * The content height of a widget's card: the sum of its parts (header, parameters, body, footer),
 * not the card itself, which stretches to fill its cell. Undefined while the widget still loads
 * (its size is not known yet; measuring the spinner would shrink and regrow the widget).
 */
export function contentHeight(cell: Element): number | undefined {
  const card = cell.firstElementChild;
  if (!card) return undefined;
  if (card.querySelector(".ant-spin-spinning") && !card.querySelector(".sightline-visualization"))
    return undefined;
  let height = 0;
  for (const part of Array.from(card.children)) {
    // A text box's menu button floats over its text: it adds no height.
    if (getComputedStyle(part).position === "absolute") continue;
    height += part.getBoundingClientRect().height;
  }
  return height > 0 ? Math.ceil(height) : undefined;
}

/**
 * Rows measured for the auto-height widgets `ids` inside `container` (cells carry
 * `data-widget-id`), by widget id. Paused while `paused` (a resize in progress).
 */
export function useAutoHeight(
  container: RefObject<HTMLElement | null>,
  ids: readonly number[],
  paused: boolean,
): ReadonlyMap<number, number> {
  const [measured, setMeasured] = useState<ReadonlyMap<number, number>>(new Map());
  const idsKey = ids.join(",");

  useEffect(() => {
    if (paused || idsKey === "") return;
    const watched = idsKey.split(",").map(Number);
    const measure = () => {
      const root = container.current;
      if (!root) return;
      setMeasured((current) => {
        let next: Map<number, number> | null = null;
        for (const id of watched) {
          const cell = root.querySelector(`[data-widget-id="${id}"]`);
          const pixels = cell ? contentHeight(cell) : undefined;
          if (pixels === undefined) continue;
          const rows = pixelsToRows(pixels);
          if (current.get(id) === rows) continue;
          next ??= new Map(current);
          next.set(id, rows);
        }
        return next ?? current;
      });
    };
    measure();
    const timer = setInterval(measure, AUTO_HEIGHT_POLL_MS);
    return () => clearInterval(timer);
  }, [container, idsKey, paused]);

  return measured;
}
