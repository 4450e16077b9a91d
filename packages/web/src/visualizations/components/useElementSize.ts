import { useEffect, useMemo, useState, type RefObject } from "react";

/**
 * The element's border-box size, kept up to date with a ResizeObserver. Read only from the
 * observer's reports (the first comes as soon as it observes): reading it as the element mounts
 * would make the browser lay out the page there and then, once per widget on a dashboard.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>): {
  width: number;
  height: number;
} {
  const [size, setSize] = useState({ width: 0, height: 0 });
  // The element the ref holds now: a renderer may draw its box only later (e.g. once rows
  // arrive: a new visualization's dialog can open before the page has the result), and a box
  // first observed then must still be measured. Compared after each render, set when it changes.
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (ref.current !== el) setEl(ref.current);
  });
  useEffect(() => {
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const box = entry.borderBoxSize?.[0];
      const [width, height] = box
        ? [box.inlineSize, box.blockSize]
        : [entry.contentRect.width, entry.contentRect.height];
      setSize((s) =>
        Math.round(s.width) === Math.round(width) && Math.round(s.height) === Math.round(height)
          ? s
          : { width, height },
      );
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return size;
}

/**
 * The element's size in whole pixels, as ECharts sizes its canvas (clientWidth), so a view saved
 * from it comes back exactly. The same object until the size changes.
 */
export function useCanvasSize(ref: RefObject<HTMLElement | null>): {
  width: number;
  height: number;
} {
  const measured = useElementSize(ref);
  return useMemo(
    () => ({ width: Math.round(measured.width), height: Math.round(measured.height) }),
    [measured.width, measured.height],
  );
}
