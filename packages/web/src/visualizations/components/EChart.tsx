// One ECharts instance bound to a div: created once, updated with each new option, resized with
// its container, disposed on unmount.
import * as echarts from "echarts";
import { useEffect, useRef, type CSSProperties } from "react";
import { markRendered } from "../lib/renderMark";
import { useRenderContext } from "./renderContextValue";

// Browser tests and benchmarks read what is drawn through this (echarts.getInstanceByDom).
if (typeof window !== "undefined") {
  (window as { sightlineECharts?: unknown }).sightlineECharts = {
    getInstanceByDom: echarts.getInstanceByDom,
  };
}

export type EChartsClick = {
  seriesIndex?: number;
  dataIndex?: number;
  name?: string;
  data?: unknown;
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

export function EChart({ option, onClick, style, notMerge = true, onEvent }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<echarts.ECharts | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const events = onEvent === undefined ? [] : Array.isArray(onEvent) ? onEvent : [onEvent];
  const eventRef = useRef(events);
  eventRef.current = events;
  const eventNames = events.map((e) => e.name).join(",");
  // Set with each new option; the next "rendered" event marks the visualization as painted.
  const markPending = useRef(false);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: "canvas" });
    chartRef.current = chart;
    chart.on("click", (p) => clickRef.current?.(p as EChartsClick));
    // "rendered" follows each painted frame; the first one after a new option is its first paint
    // (with progressive rendering of large series, "finished" can come much later or not at all).
    chart.on("rendered", () => {
      if (!markPending.current) return;
      markPending.current = false;
      markRendered("echarts");
    });
    const observer =
      typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => chart.resize()) : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !eventNames) return;
    const bound = eventNames.split(",").map((name) => {
      const handler = (p: unknown) =>
        eventRef.current.find((e) => e.name === name)?.handler(p, chart);
      chart.on(name, handler);
      return { name, handler };
    });
    return () => {
      for (const { name, handler } of bound) chart.off(name, handler);
    };
  }, [eventNames]);

  // Only the first option animates: later ones (new rows, a cross-filter, an edited setting) are
  // drawn at once, so a dashboard of charts updating together is not busy animating for a second.
  // On a dashboard not even the first: its charts draw together as it opens, and each animation
  // frame would redraw every chart still animating (frames of 400 ms and more, bench/README.md).
  const animateFirst = useRenderContext() !== "widget";
  const firstOption = useRef(true);
  useEffect(() => {
    if (!chartRef.current) return;
    markPending.current = true;
    const animate = firstOption.current && animateFirst;
    const next = animate ? option : { ...option, animation: false };
    firstOption.current = false;
    chartRef.current.setOption(next as echarts.EChartsOption, { notMerge, lazyUpdate: true });
  }, [option, notMerge, animateFirst]);

  // A parent sized only by min-height gives "100%" nothing to resolve against, so the chart
  // takes that min-height too.
  return (
    <div ref={ref} style={{ width: "100%", height: "100%", minHeight: "inherit", ...style }} />
  );
}

export { echarts };
