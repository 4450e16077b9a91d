// MAP (markers) drawn on an ECharts geo view in Web Mercator: raster tiles from the configured
// tile server when it answers, over the bundled world outline, which shows when it does not.
import { Spin } from "antd";
import { useMemo, useState } from "react";
import { EChart, type echarts } from "../components/EChart";
import { mercator } from "../lib/geo";
import { Notices } from "../components/Notice";
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

export function MapRenderer({ options: stored, data, formats }: RendererProps) {
  const o = useMemo(() => getMapOptions(stored), [stored]);
  const { state } = useGeoMap("countries");
  const [view, setView] = useState<{ zoom: number; center?: number[] } | null>(null);
  const tileTemplate = resolveTileUrl(o.mapTileUrl, formats.mapTileUrl);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const tiles: Tile[] = useMemo(
    () =>
      tileTemplate && viewport
        ? visibleTiles(viewport, tileTemplate, globalThis.location?.protocol ?? "https:")
        : [],
    [tileTemplate, viewport],
  );
  const zoom = view?.zoom ?? 1;
  const { groups, notices } = useMemo(() => markerGroups(data, o), [data, o]);
  const option = useMemo(() => {
    const all = groups.flatMap((g) => g.points);
    const b = o.bounds;
    const lats = b ? [b._southWest.lat, b._northEast.lat] : all.map((p) => p.lat);
    const lons = b ? [b._southWest.lng, b._northEast.lng] : all.map((p) => p.lon);
    // The geo view works in projected (Web Mercator) units: its centre is given in them, and
    // the zoom is relative to the whole world fitted to the box (about square, so the height).
    const has = all.length > 0 || !!b;
    const xs = lons.map((lon) => mercator.project([lon, 0])[0]!);
    const ys = lats.map((lat) => mercator.project([0, lat])[1]!);
    const center = has
      ? [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2]
      : undefined;
    const fracX = (Math.max(...xs) - Math.min(...xs)) / (2 * Math.PI);
    const fracY = (Math.max(...ys) - Math.min(...ys)) / (2 * Math.PI);
    const initialZoom = has ? Math.max(1, Math.min(40, 0.8 / Math.max(fracY, fracX / 2, 1e-3))) : 1;
    const symbol = o.classify
      ? "circle"
      : o.customizeMarkers
        ? (SHAPES[o.iconShape] ?? "pin")
        : "pin";
    const cell = 24 / Math.max(view?.zoom ?? initialZoom, 1);
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
            left: 8,
            orient: "vertical",
            backgroundColor: "rgba(255,255,255,0.8)",
          }
        : undefined,
      geo: {
        map: "sightline-countries",
        projection: mercator,
        roam: true,
        center: view?.center ?? center,
        zoom: view?.zoom ?? initialZoom,
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
            data: clusters.map((c) => ({ value: [c.lon, c.lat, c.count], points: c.points })),
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
  }, [groups, o, zoom, tiles, tileTemplate]);

  // Tiles follow the view: after each layout and each pan or zoom.
  const updateViewport = (chart: echarts.ECharts) => {
    if (!tileTemplate) return;
    const next = readViewport(chart);
    if (next) setViewport((prev) => (sameViewport(prev, next) ? prev : next));
  };

  if (state === "loading") return <Spin />;
  return (
    <div style={{ height: "100%", minHeight: 320, display: "flex", flexDirection: "column" }}>
      <Notices notices={notices} />
      <div style={{ flex: 1, minHeight: 280 }}>
        <EChart
          option={option}
          notMerge={false}
          onEvent={[
            {
              name: "georoam",
              handler: (_p, chart) => {
                const geo = (chart.getOption() as { geo?: { zoom?: number; center?: number[] }[] })
                  .geo?.[0];
                if (geo?.zoom && Math.abs(Math.log2(geo.zoom) - Math.log2(zoom)) >= 1)
                  setView({ zoom: geo.zoom, center: geo.center });
                updateViewport(chart);
              },
            },
            { name: "finished", handler: (_p, chart) => updateViewport(chart) },
          ]}
        />
      </div>
    </div>
  );
}
