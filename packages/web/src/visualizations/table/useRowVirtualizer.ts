// The table's virtualized rows, measured without forcing the browser to lay out the page.
// TanStack Virtual's defaults read sizes synchronously as the table mounts (the scroll box's
// clientHeight, each row's offsetHeight) and scroll the new box to its top: each read or write
// makes the browser lay out the whole page there and then. On a dashboard opening with 10 tables
// among other widgets that was over 300 ms of layouts (bench/dashboardBrowser.ts's profile). Here
// the sizes come from ResizeObservers, which report them after the browser's own layout.
import {
  elementScroll,
  useVirtualizer,
  type Virtualizer,
  type VirtualizerOptions,
} from "@tanstack/react-virtual";
import type { RefObject } from "react";

type Rows = Virtualizer<HTMLDivElement, Element>;
type Options = VirtualizerOptions<HTMLDivElement, Element>;

/** The scroll box's size, from a ResizeObserver only (it reports once as soon as observed). */
const observeBoxSize: Options["observeElementRect"] = (instance, report) => {
  const box = instance.scrollElement;
  if (!box || typeof ResizeObserver === "undefined") return;
  const observer = new ResizeObserver(([entry]) => {
    if (!entry) return;
    report({
      width: Math.round(entry.contentRect.width),
      height: Math.round(entry.contentRect.height),
    });
  });
  observer.observe(box);
  return () => observer.disconnect();
};

/**
 * A row's height: from its ResizeObserver entry; as the row mounts (no entry yet), the height
 * measured before or the estimate, which the entry corrects once the browser has laid it out.
 */
function rowHeight(estimate: number): Options["measureElement"] {
  return (row, entry, instance) => {
    const box = entry?.borderBoxSize?.[0];
    if (box) return Math.round(box.blockSize);
    const key = instance.options.getItemKey(instance.indexFromElement(row));
    return instance.itemSizeCache.get(key) ?? estimate;
  };
}

/**
 * Scrolls as TanStack's default does, but leaves a box known to be at its top there: the
 * virtualizer scrolls each new box to its top as it attaches, which the box already is.
 */
const scrollBox: Options["scrollToFn"] = (offset, options, instance) => {
  const target = offset + (options.adjustments ?? 0);
  if (target === 0 && !instance.scrollOffset) return;
  elementScroll(offset, options, instance);
};

export function useRowVirtualizer(
  count: number,
  scrollRef: RefObject<HTMLDivElement | null>,
  estimate: number,
): Rows {
  return useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimate,
    overscan: 12,
    // Until the box reports its size: rows enough for a screenful, as a widget's box is at most
    // that high.
    initialRect: {
      width: 0,
      height: typeof window === "undefined" ? 800 : window.innerHeight,
    },
    observeElementRect: observeBoxSize,
    measureElement: rowHeight(estimate),
    scrollToFn: scrollBox,
  });
}
