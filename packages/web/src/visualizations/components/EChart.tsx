// One ECharts instance bound to a div: created once, updated with each new option, resized with
// its container, disposed on unmount.
import { echarts } from "./echartsSetup";
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
} from "react";
import { markRendered } from "../lib/renderMark";
import { moveFocus, reachableCounts, type ChartFocus } from "./chartKeyboard";
import { useDatumMenuOpen } from "./datumMenuOpen";
import { useRenderContext } from "./renderContextValue";

// Browser tests and benchmarks read what is drawn through this (echarts.getInstanceByDom).
if (typeof window !== "undefined") {
  (window as { sightlineECharts?: unknown }).sightlineECharts = {
    getInstanceByDom: echarts.getInstanceByDom,
  };
}

export type EChartsClick = {
  /** "series" for a value; "xAxis" or "yAxis" for an axis label (with the axis' triggerEvent). */
  componentType?: string;
  seriesIndex?: number;
  dataIndex?: number;
  name?: string;
  data?: unknown;
  /** An axis label's value: the category it labels. */
  value?: unknown;
  /** ZRender's event; `event` is the browser's (modifier keys). */
  event?: { event?: { ctrlKey?: boolean; metaKey?: boolean } };
};

export interface EChartEvent {
  name: string;
  handler: (params: unknown, chart: echarts.ECharts) => void;
}

export interface EChartProps {
  option: Record<string, unknown>;
  onClick?: (params: EChartsClick) => void;
  style?: CSSProperties;
  /** Merge into the previous option instead of replacing it. */
  notMerge?: boolean;
  /** Other ECharts events by name (e.g. "georoam"), with the chart instance. */
  onEvent?: EChartEvent | EChartEvent[];
}

/** Highlights a value and shows its tooltip, as hovering it would. */
function showFocus(chart: echarts.ECharts, at: ChartFocus) {
  if (chart.isDisposed()) return;
  chart.dispatchAction({ type: "downplay" });
  chart.dispatchAction({ type: "highlight", ...at });
  chart.dispatchAction({ type: "showTip", ...at });
}

export function EChart({ option, onClick, style, notMerge = true, onEvent }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<echarts.ECharts | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const events = onEvent === undefined ? [] : Array.isArray(onEvent) ? onEvent : [onEvent];
  const eventRef = useRef(events);
  eventRef.current = events;
  const eventNames = events.map((e) => e.name).join(",");
  // The value reached from the keyboard, if any.
  const focus = useRef<ChartFocus | null>(null);
  // Set with each new option; the next "rendered" event marks the visualization as painted.
  const markPending = useRef(false);

  // The chart is created at the size its box first reports to a ResizeObserver, and resized to
  // each next one: ECharts measuring the box itself (at init, and hiding it to measure at each
  // resize) makes the browser lay out the page there and then, once per chart of a dashboard.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let created: echarts.ECharts | null = null;
    const create = (size?: { width: number; height: number }) => {
      const instance = echarts.init(el, undefined, { renderer: "canvas", ...size });
      instance.on("click", (p) => clickRef.current?.(p as EChartsClick));
      // "rendered" follows each painted frame; the first one after a new option is its first
      // paint (with progressive rendering of large series, "finished" can come much later or not
      // at all).
      instance.on("rendered", () => {
        if (!markPending.current) return;
        markPending.current = false;
        markRendered("echarts");
      });
      created = instance;
      setChart(instance);
    };
    if (typeof ResizeObserver === "undefined") {
      create();
      return () => created?.dispose();
    }
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      // Whole pixels, as ECharts measures.
      const size = {
        width: Math.floor(entry.contentRect.width),
        height: Math.floor(entry.contentRect.height),
      };
      if (created) created.resize(size);
      else create(size);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      created?.dispose();
      setChart(null);
    };
  }, []);

  useEffect(() => {
    if (!chart || !eventNames) return;
    const bound = eventNames.split(",").map((name) => {
      const handler = (p: unknown) =>
        eventRef.current.find((e) => e.name === name)?.handler(p, chart);
      chart.on(name, handler);
      return { name, handler };
    });
    return () => {
      if (chart.isDisposed()) return;
      for (const { name, handler } of bound) chart.off(name, handler);
    };
  }, [chart, eventNames]);

  // While the menu of click actions is open at a value, no tooltip shows beside it.
  const menuOpen = useDatumMenuOpen();
  const hasTooltip = !!option.tooltip;
  const tipsOff = useRef(false);
  useEffect(() => {
    if (!chart || chart.isDisposed() || !hasTooltip || tipsOff.current === menuOpen) return;
    tipsOff.current = menuOpen;
    if (menuOpen) chart.dispatchAction({ type: "hideTip" });
    chart.setOption({ tooltip: { triggerOn: menuOpen ? "none" : "mousemove|click" } });
  }, [menuOpen, chart, hasTooltip]);

  // Only the first option animates: later ones (new rows, a cross-filter, an edited setting) are
  // drawn at once, so a dashboard of charts updating together is not busy animating for a second.
  // On a dashboard not even the first: its charts draw together as it opens, and each animation
  // frame would redraw every chart still animating (frames of 400 ms and more, bench/README.md).
  const animateFirst = useRenderContext() !== "widget";
  const firstOption = useRef(true);
  useEffect(() => {
    if (!chart) return;
    markPending.current = true;
    const animate = firstOption.current && animateFirst;
    const next = animate ? option : { ...option, animation: false };
    firstOption.current = false;
    chart.setOption(next as echarts.EChartsCoreOption, { notMerge, lazyUpdate: true });
    // A value reached from the keyboard stays highlighted through a new option (the dimming an
    // Enter's cross-filter brings, say), once that option is drawn.
    const at = focus.current;
    if (at) requestAnimationFrame(() => focus.current === at && showFocus(chart, at));
  }, [chart, option, notMerge, animateFirst]);

  // A chart whose values can be clicked can be used from the keyboard too: Tab to it, the arrow
  // keys move between its values (highlighted, with their tooltip), Enter or Space clicks one,
  // Escape lets go.
  const counts = useMemo(() => reachableCounts(option.series), [option.series]);
  const keyboard = !!onClick && counts.some((count) => count > 0);
  const letGo = () => {
    focus.current = null;
    if (!chart || chart.isDisposed()) return;
    chart.dispatchAction({ type: "hideTip" });
    chart.dispatchAction({ type: "downplay" });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!chart) return;
    const at = focus.current;
    if (event.key === "Escape" && at) {
      // Only lets go of the value; the page's own Escape (removing a cross-filter) waits.
      event.stopPropagation();
      return letGo();
    }
    if ((event.key === "Enter" || event.key === " ") && at) {
      event.preventDefault();
      const data = (option.series as { data?: unknown[] }[])[at.seriesIndex]?.data;
      clickRef.current?.({
        ...at,
        data: data?.[at.dataIndex],
        event: { event: { ctrlKey: event.ctrlKey, metaKey: event.metaKey } },
      });
      return;
    }
    const next = moveFocus(event.key, at, counts);
    if (!next) return;
    event.preventDefault();
    focus.current = next;
    showFocus(chart, next);
  };

  // A parent sized only by min-height gives "100%" nothing to resolve against, so the chart
  // takes that min-height too.
  return (
    <div
      ref={ref}
      style={{ width: "100%", height: "100%", minHeight: "inherit", ...style }}
      {...(keyboard && {
        tabIndex: 0,
        role: "application",
        "aria-roledescription": "chart",
        "aria-label": "Chart: the arrow keys move between values, Enter selects one",
        onKeyDown,
        onBlur: letGo,
      })}
    />
  );
}

export { echarts };
