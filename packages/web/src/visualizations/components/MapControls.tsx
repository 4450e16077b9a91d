// Zoom and full-screen buttons over an ECharts map, in the top-left corner like Leaflet's. The
// maps pan by dragging but do not zoom on the wheel (Redash turns wheel zoom off, so that a page
// scrolls over a map), so these buttons are the way to zoom.
import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  MinusOutlined,
  PlusOutlined,
} from "@ant-design/icons";
import { Button, Space, theme } from "antd";
import { useEffect, useRef, useState, type CSSProperties, type RefObject } from "react";
import { echarts } from "./EChart";

/** The geo view the buttons zoom: a geo component (the marker map) or a map series. */
export type MapZoomTarget = { geoIndex: number } | { seriesIndex: number };

const BUTTON = 32;
const GAP = 8;
/** The controls' inset from the map's top-left corner. */
const INSET = 10;

/** How far down the controls reach, so that something else in that corner can sit below them. */
export const MAP_CONTROLS_BOTTOM = INSET + 3 * BUTTON + GAP;

/**
 * Zooms by `factor` around the middle of the chart, through the action ECharts' own roaming
 * dispatches: the "georoam" handlers, scale limits and redraw all follow as for a drag.
 */
export function zoomMap(chart: echarts.ECharts, target: MapZoomTarget, factor: number): void {
  chart.dispatchAction({
    type: "geoRoam",
    componentType: "geoIndex" in target ? "geo" : "series",
    ...target,
    zoom: factor,
    originX: chart.getWidth() / 2,
    originY: chart.getHeight() / 2,
    animation: { duration: 0 },
  });
}

/**
 * A map's outer box, which is what goes full screen: it fills its cell, stacks notices over the
 * drawing area, and is painted in the app's background while full screen (the browser's backdrop
 * is black, and would show through a map's sea).
 */
export function useMapFrame(): {
  frame: RefObject<HTMLDivElement | null>;
  fullscreen: boolean;
  style: CSSProperties;
} {
  const { token } = theme.useToken();
  const frame = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(frame);
  const style: CSSProperties = {
    height: "100%",
    minHeight: 320,
    display: "flex",
    flexDirection: "column",
    background: fullscreen ? token.colorBgContainer : undefined,
  };
  return { frame, fullscreen, style };
}

/** Whether this element is the one shown full screen now. */
export function useFullscreen(container: RefObject<HTMLElement | null>): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = () =>
      setOn(!!container.current && document.fullscreenElement === container.current);
    document.addEventListener("fullscreenchange", update);
    return () => document.removeEventListener("fullscreenchange", update);
  }, [container]);
  return on;
}

export interface MapControlsProps {
  /** The element shown full screen; the map's chart is the ECharts instance inside it. */
  container: RefObject<HTMLElement | null>;
  /** Whether `container` is full screen now (useFullscreen), which the map also styles by. */
  fullscreen: boolean;
  target: MapZoomTarget;
}

/** Placed in a positioned parent over the map's drawing area. */
export function MapControls({ container, fullscreen, target }: MapControlsProps) {
  const zoom = (factor: number) => {
    // The EChart component keeps its instance to itself; ECharts finds it by its element.
    const el = container.current?.querySelector("[_echarts_instance_]");
    const chart = el ? echarts.getInstanceByDom(el as HTMLElement) : undefined;
    if (chart && !chart.isDisposed()) zoomMap(chart, target, factor);
  };
  const toggleFullscreen = () => {
    // A refusal (no user gesture, a frame without permission) leaves the map as it was.
    if (fullscreen) void document.exitFullscreen().catch(() => undefined);
    else void container.current?.requestFullscreen().catch(() => undefined);
  };
  return (
    <div
      style={{
        position: "absolute",
        top: INSET,
        left: INSET,
        zIndex: 1,
        display: "flex",
        flexDirection: "column",
        gap: GAP,
      }}
    >
      <Space.Compact orientation="vertical">
        <Button
          aria-label="Zoom in"
          title="Zoom in"
          icon={<PlusOutlined />}
          onClick={() => zoom(2)}
        />
        <Button
          aria-label="Zoom out"
          title="Zoom out"
          icon={<MinusOutlined />}
          onClick={() => zoom(0.5)}
        />
      </Space.Compact>
      {/* Phones without the Fullscreen API (iPhone Safari) get no button that does nothing. */}
      {document.fullscreenEnabled ? (
        <Button
          aria-label={fullscreen ? "Exit full screen" : "Full screen"}
          title={fullscreen ? "Exit full screen" : "Full screen"}
          icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
          onClick={toggleFullscreen}
        />
      ) : null}
    </div>
  );
}
