// MAP (markers) drawn on an ECharts geo view in Web Mercator: raster tiles from the configured
// tile server when it answers, over the bundled world outline, which shows when it does not.
import { Spin } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { EChart, type EChartsClick, type echarts } from "../components/EChart";
import { MapControls, useMapFrame } from "../components/MapControls";
import { mercator } from "../lib/geo";
import { Notices } from "../components/Notice";
import { useCanvasSize } from "../components/useElementSize";
import { useGeoMap } from "../components/useGeoMap";
import { sanitizeHtml } from "../lib/sanitize";
import type { RendererProps } from "../types";
import {
  clusterPoints,
  getMapOptions,
  markerGroups,
  markerText,
  type MarkerPoint,
} from "./markers";
import { resolveTileUrl, tileAttribution, visibleTiles, type Tile, type Viewport } from "./tiles";
import {
  WORLD_COORDS,
  fitView,
  fromLeafletBounds,
  pointsBox,
  sameBounds,
  toLeafletBounds,
  worldLayoutSize,
  type GeoView,
  type LeafletBounds,
} from "./view";

/** How long the map stands still before the editor preview saves its view. */
const SAVE_DELAY_MS = 300;

const SHAPES: Record<string, string> = {
  marker: "pin",
  doughnut: "circle",
  "circle-dot": "emptyCircle",
  circle: "circle",
  "rectangle-dot": "emptyRect",
  rectangle: "rect",
};

/** The geographic extent the chart shows now, or null before the first layout. */
function readViewport(chart: echarts.ECharts): Viewport | null {
  // ECharts 5.6's convertFromPixel unprojects before undoing the view transform, so the mapping
  // is derived from convertToPixel instead: pixels are a scale and offset of projected units.
  const at = (lonLat: number[]) =>
    chart.convertToPixel({ geoIndex: 0 }, lonLat) as number[] | undefined;
  const origin = at([0, 0]);
  const east = at([90, 0]);
  if (!origin || !east) return null;
  const scale = (east[0]! - origin[0]!) / (Math.PI / 2);
  if (!Number.isFinite(scale) || scale <= 0) return null;
  const width = chart.getWidth();
  const toLonLat = (px: number, py: number) =>
    mercator.unproject([(px - origin[0]!) / scale, (py - origin[1]!) / scale]);
  const [west, north] = toLonLat(0, 0);
  const [eastLon, south] = toLonLat(width, chart.getHeight());
  return { west: west!, north: north!, east: eastLon!, south: south!, widthPx: width };
}

const sameViewport = (a: Viewport | null, b: Viewport | null) =>
  !!a &&
  !!b &&
  (["west", "east", "north", "south", "widthPx"] as const).every(
    (k) => Math.abs(a[k] - b[k]) < 1e-6,
  );

export function MapRenderer({
  options: stored,
  data,
  formats,
  onOptionsChange,
  onDatumClick,
  selection,
}: RendererProps) {
  const o = useMemo(() => getMapOptions(stored), [stored]);
  // A marker stands for its row's group (classify column), else its first non-coordinate column.
  const clickColumn = useMemo(
    () =>
      o.classify ??
      data.columns.find((c) => c.name !== o.latColName && c.name !== o.lonColName)?.name ??
      null,
    [o, data.columns],
  );
  const { state } = useGeoMap("countries");
  const { frame, fullscreen, style: frameStyle } = useMapFrame();
  const box = useRef<HTMLDivElement>(null);
  const size = useCanvasSize(box);
  const sized = size.width > 0 && size.height > 0;
  // The view the user moved to, and the saved bounds it was moved from (or saved as): it is kept
  // while those stay the saved bounds, so redraws (tiles, clustering, a re-save) do not jump.
  const userView = useRef<(GeoView & { bounds: LeafletBounds | null }) | null>(null);
  // The zoom clustering was last computed for; it changes by whole steps only.
  const [clusterZoom, setClusterZoom] = useState<number | null>(null);
  const tileTemplate = resolveTileUrl(o.mapTileUrl, formats.mapTileUrl);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const tiles: Tile[] = useMemo(
    () =>
      tileTemplate && viewport
        ? visibleTiles(viewport, tileTemplate, globalThis.location?.protocol ?? "https:")
        : [],
    [tileTemplate, viewport],
  );
  const { groups, notices } = useMemo(() => markerGroups(data, o), [data, o]);
  // Saved bounds are shown whole; without them, every marker (or the world when there are none).
  const fitted = useMemo((): GeoView | null => {
    if (!sized) return null;
    if (o.bounds) return fitView(fromLeafletBounds(o.bounds), size);
    const markers = pointsBox(groups.flatMap((g) => g.points));
    return markers ? fitView(markers, size, { fill: 0.8, minZoom: 1, maxZoom: 40 }) : null;
  }, [o.bounds, groups, size, sized]);
  const moved =
    userView.current && sameBounds(userView.current.bounds, o.bounds) ? userView.current : null;
  const view: GeoView = moved ?? fitted ?? { center: [0, 0], zoom: 1 };
  const zoom = clusterZoom !== null && moved ? clusterZoom : view.zoom;
  const option = useMemo(() => {
    const symbol = o.classify
      ? "circle"
      : o.customizeMarkers
        ? (SHAPES[o.iconShape] ?? "pin")
        : "pin";
    const cell = 24 / Math.max(zoom, 1);
    return {
      tooltip: {
        show: true,
        trigger: "item",
        enterable: true,
        formatter: (p: { data: { points: MarkerPoint[] } }) => {
          const pts = p.data?.points ?? [];
          if (pts.length > 1) return `${pts.length} markers`;
          if (!pts[0]) return "";
          const kind = o.tooltip.enabled ? "tooltip" : o.popup.enabled ? "popup" : null;
          return kind
            ? sanitizeHtml(
                markerText(
                  kind === "tooltip" ? o.tooltip.template : o.popup.template,
                  pts[0],
                  o,
                  kind,
                ),
              )
            : "";
        },
      },
      legend: o.classify
        ? {
            data: groups.map((g) => g.name),
            type: "scroll",
            top: 8,
            // Top right, as Redash's layer control: the zoom buttons are top left.
            right: 8,
            orient: "vertical",
            backgroundColor: "rgba(255,255,255,0.8)",
          }
        : undefined,
      geo: {
        map: "sightline-countries",
        projection: mercator,
        // Dragging pans; the wheel scrolls the page (Redash turns wheel zoom off) and the zoom
        // buttons zoom.
        roam: "move",
        // Zoom 1 is the Mercator world contained in the drawing area, whatever its shape.
        boundingCoords: WORLD_COORDS,
        layoutCenter: ["50%", "50%"],
        layoutSize: sized ? worldLayoutSize(size) : "100%",
        center: view.center,
        zoom: view.zoom,
        silent: true,
        itemStyle: { areaColor: "#eef1f4", borderColor: "#b7c0cc", borderWidth: 0.5 },
      },
      graphic: tiles.length
        ? [
            {
              type: "text",
              right: 6,
              bottom: 4,
              z: 100,
              style: {
                text: tileAttribution(tileTemplate ?? ""),
                fill: "#555",
                font: "10px sans-serif",
                backgroundColor: "rgba(255,255,255,0.7)",
                padding: [2, 4],
              },
            },
          ]
        : [],
      series: [
        // The tile layer, under the markers; a tile that fails to load leaves the outline visible.
        {
          type: "custom",
          id: "tiles",
          coordinateSystem: "geo",
          silent: true,
          z: 1,
          data: tiles.map((t) => [t.west, t.north]),
          renderItem: (params: { dataIndex: number }, api: { coord(p: number[]): number[] }) => {
            const t = tiles[params.dataIndex]!;
            const [x1, y1] = api.coord([t.west, t.north]);
            const [x2, y2] = api.coord([t.east, t.south]);
            return {
              type: "image",
              style: { image: t.url, x: x1, y: y1, width: x2! - x1!, height: y2! - y1! },
            };
          },
        },
        ...groups.map((g) => {
          const clusters =
            o.clusterMarkers && g.points.length > 1
              ? clusterPoints(g.points, cell)
              : g.points.map((p) => ({ lat: p.lat, lon: p.lon, count: 1, points: [p] }));
          return {
            type: "scatter",
            name: g.name,
            coordinateSystem: "geo",
            data: clusters.map((c) => ({
              value: [c.lon, c.lat, c.count],
              points: c.points,
              // The widget's own cross-filter selection: other single markers dimmed.
              itemStyle:
                clickColumn &&
                c.count === 1 &&
                selection?.columns.includes(clickColumn) &&
                !selection.has(clickColumn, c.points[0]!.row[clickColumn])
                  ? { opacity: 0.3 }
                  : undefined,
            })),
            symbol: (v: number[]) => (v[2] > 1 ? "circle" : symbol),
            symbolSize: (v: number[]) =>
              v[2] > 1 ? Math.min(44, 18 + Math.log2(v[2]) * 4) : symbol === "pin" ? 22 : 12,
            itemStyle: {
              color:
                o.customizeMarkers && !o.classify && !o.iconShape.endsWith("dot")
                  ? o.backgroundColor
                  : g.color,
              borderColor: o.customizeMarkers && !o.classify ? o.borderColor : "#ffffff",
              borderWidth: o.classify ? 0 : 1,
              opacity: o.classify ? 0.9 : 1,
            },
            label: {
              show: true,
              formatter: (p: { value: number[] }) => (p.value[2] > 1 ? String(p.value[2]) : ""),
              color: "#fff",
              fontWeight: 600,
            },
            large: g.points.length > 5000 && !o.clusterMarkers,
            z: 2,
          };
        }),
      ],
    };
  }, [
    groups,
    o,
    clickColumn,
    selection,
    zoom,
    tiles,
    tileTemplate,
    size,
    sized,
    view.center[0],
    view.center[1],
    view.zoom,
  ]);

  // A single marker is a click on its row's value; a cluster is not (it zooms in the map's way).
  const onClick = (p: EChartsClick) => {
    const points = (p.data as { points?: MarkerPoint[] } | undefined)?.points;
    if (!onDatumClick || !clickColumn || points?.length !== 1) return;
    const native = p.event?.event;
    onDatumClick({
      column: clickColumn,
      value: points[0]!.row[clickColumn],
      row: points[0]!.row,
      additive: !!(native?.ctrlKey || native?.metaKey),
    });
  };

  // Tiles follow the view: after each layout and each pan or zoom.
  const updateViewport = (chart: echarts.ECharts) => {
    if (!tileTemplate) return;
    const next = readViewport(chart);
    if (next) setViewport((prev) => (sameViewport(prev, next) ? prev : next));
  };

  // In the editor preview, the view the user moves to is saved as the bounds (Redash's Leaflet
  // shape), once the map has stood still for a moment. Elsewhere moving the map saves nothing.
  const latest = useRef({ stored, onOptionsChange });
  latest.current = { stored, onOptionsChange };
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(saveTimer.current), []);
  const scheduleSave = (chart: echarts.ECharts) => {
    if (!onOptionsChange) return;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      const shown = readViewport(chart);
      const save = latest.current.onOptionsChange;
      if (!shown || !save || chart.isDisposed()) return;
      const bounds = toLeafletBounds(shown);
      if (userView.current) userView.current.bounds = bounds;
      save({ ...latest.current.stored, bounds });
    }, SAVE_DELAY_MS);
  };

  // The drawing area is always in the page, so that its size is known before the map loads.
  return (
    <div ref={frame} style={frameStyle}>
      {state === "loading" ? null : <Notices notices={notices} />}
      <div ref={box} style={{ flex: 1, minHeight: 280, position: "relative" }}>
        {state === "loading" ? (
          <Spin />
        ) : (
          <EChart
            option={option}
            notMerge={false}
            onClick={onDatumClick ? onClick : undefined}
            onEvent={[
              {
                name: "georoam",
                handler: (_p, chart) => {
                  const geo = (
                    chart.getOption() as { geo?: { zoom?: number; center?: number[] }[] }
                  ).geo?.[0];
                  if (geo?.zoom && geo.center) {
                    userView.current = {
                      center: [...geo.center],
                      zoom: geo.zoom,
                      bounds: o.bounds,
                    };
                    const step = Math.abs(Math.log2(geo.zoom) - Math.log2(zoom)) >= 1;
                    if (!moved || clusterZoom === null || step) setClusterZoom(geo.zoom);
                  }
                  updateViewport(chart);
                  scheduleSave(chart);
                },
              },
              { name: "finished", handler: (_p, chart) => updateViewport(chart) },
            ]}
          />
        )}
        {state === "loading" ? null : (
          <MapControls container={frame} fullscreen={fullscreen} target={{ geoIndex: 0 }} />
        )}
      </div>
    </div>
  );
}
