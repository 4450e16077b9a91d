import { Spin } from "antd";
import { useEffect, useMemo, useRef } from "react";
import { EChart, type EChartsClick, type echarts } from "../components/EChart";
import { MAP_CONTROLS_BOTTOM, MapControls, useMapFrame } from "../components/MapControls";
import { Notices } from "../components/Notice";
import { useCanvasSize } from "../components/useElementSize";
import { useGeoMap } from "../components/useGeoMap";
import { hintLine } from "../components/tooltipHint";
import { identityProjection, MAPS } from "../lib/geo";
import { formatNumber } from "../lib/numberFormat";
import { sanitizeHtml } from "../lib/sanitize";
import { renderTemplate, valueText } from "../lib/template";
import type { RendererProps, Row } from "../types";
import { boundsLayout, cornersBox, parseBounds, supportsBounds, toStoredBounds } from "./bounds";
import { colorClasses, colorFor, getChoroplethOptions, regionValue, rowsByKey } from "./choropleth";

/** How long the map stands still before the editor preview saves its view. */
const SAVE_DELAY_MS = 300;

/** The longitude/latitude box the map series shows now, or null before the first layout. */
function shownBox(chart: echarts.ECharts) {
  const at = (px: number[]) =>
    chart.convertFromPixel({ seriesIndex: 0 }, px) as number[] | null | undefined;
  const topLeft = at([0, 0]);
  const bottomRight = at([chart.getWidth(), chart.getHeight()]);
  return topLeft && bottomRight ? cornersBox(topLeft, bottomRight) : null;
}

export function ChoroplethRenderer({
  options: stored,
  data,
  formats,
  onOptionsChange,
  onDatumClick,
  clickHint,
  selection,
}: RendererProps) {
  const o = useMemo(
    () => getChoroplethOptions(stored, formats.choroplethAvailableMaps),
    [stored, formats.choroplethAvailableMaps],
  );
  const { geo, state } = useGeoMap(o.mapType);
  const { frame, fullscreen, style: frameStyle } = useMapFrame();
  const area = useRef<HTMLDivElement>(null);
  const size = useCanvasSize(area);
  const geographic = supportsBounds(o.mapType);
  // Saved bounds are the view; unset, the whole map is fitted.
  const layout = useMemo(() => {
    const box = geographic ? parseBounds(o.bounds) : null;
    return box && size.width > 0 && size.height > 0 ? boundsLayout(box, size) : {};
  }, [geographic, o.bounds, size]);
  const hint = onDatumClick ? clickHint : undefined;
  const built = useMemo(() => {
    if (!geo) return null;
    const notices: string[] = [];
    if (!o.keyColumn || !o.targetField || !o.valueColumn)
      notices.push("Choose the key column, target field and value column in the editor.");
    const names = new Set(data.columns.map((c) => c.name));
    for (const c of [o.keyColumn, o.valueColumn])
      if (c && !names.has(c)) notices.push(`Column "${c}" is not in the result.`);
    const byKey = rowsByKey(data, o.keyColumn);
    const regions = geo.regions.map((g) => {
      const key = o.targetField ? g.properties[o.targetField] : undefined;
      const row = key !== undefined && key !== "" ? byKey.get(key) : undefined;
      return { name: g.name, props: g.properties, row, value: regionValue(row, o.valueColumn) };
    });
    const values = regions.map((r) => r.value).filter((v): v is number => v !== null);
    const classes = colorClasses(values, o);
    const fmt = (v: number | null) =>
      v === null ? o.noValuePlaceholder : formatNumber(v, o.valueFormat, formats);
    const fill = (tpl: string, r: (typeof regions)[number]) =>
      sanitizeHtml(
        renderTemplate(tpl, (k) => {
          if (k === "@@value") return fmt(r.value);
          if (k.startsWith("@@")) return r.props[k.slice(2)] ?? "";
          return r.row && k in r.row ? valueText((r.row as Row)[k]) : undefined;
        }),
      );
    const def = MAPS.find((m) => m.key === o.mapType);
    // The widget's own cross-filter selection: regions of other keys dimmed.
    const key = o.keyColumn;
    const dimmed = (r: (typeof regions)[number]) =>
      !!key &&
      !!selection?.columns.includes(key) &&
      !(r.row && selection.has(key, (r.row as Row)[key]));
    const legendItems = [...classes].reverse();
    const option = {
      backgroundColor: o.colors.background,
      tooltip: {
        show: o.tooltip.enabled,
        trigger: "item",
        formatter: (p: { dataIndex: number }) => {
          const region = regions[p.dataIndex];
          const text = fill(o.tooltip.template, region);
          // A region with a row takes clicks: say what one does.
          return hint && region?.row && o.keyColumn ? `${text}${hintLine(hint)}` : text;
        },
      },
      series: [
        {
          type: "map",
          map: `sightline-${o.mapType}`,
          projection: def?.projected ? identityProjection : undefined,
          // Dragging pans; the wheel scrolls the page (Redash turns wheel zoom off) and the zoom
          // buttons zoom.
          roam: "move",
          ...layout,
          nameProperty: "name",
          selectedMode: false,
          itemStyle: { borderColor: o.colors.borders, borderWidth: 0.6 },
          emphasis: {
            label: { show: false },
            itemStyle: { borderWidth: 1.5, borderColor: "#333" },
          },
          data: regions.map((r) => ({
            name: r.name,
            value: r.value ?? undefined,
            itemStyle: {
              areaColor: colorFor(r.value, classes, o.colors.noValue),
              opacity: dimmed(r) ? 0.3 : 1,
            },
          })),
        },
      ],
      graphic:
        o.legend.visible && classes.length
          ? [
              {
                type: "group",
                [o.legend.position.includes("left") ? "left" : "right"]: 10,
                // Top left, it stacks under the zoom buttons, as Leaflet's controls do.
                [o.legend.position.includes("top") ? "top" : "bottom"]:
                  o.legend.position === "top-left" ? MAP_CONTROLS_BOTTOM + 10 : 10,
                // Above the regions, on a light card: a saved view may put land behind it.
                children: [
                  {
                    type: "rect",
                    z: 100,
                    shape: { x: -6, y: -6, width: 102, height: legendItems.length * 18 + 8, r: 4 },
                    style: { fill: "rgba(255,255,255,0.85)" },
                  },
                  ...legendItems.flatMap((c, i) => [
                    {
                      type: "rect",
                      z: 101,
                      shape: { x: 0, y: i * 18, width: 14, height: 14 },
                      style: { fill: c.color },
                    },
                    {
                      type: "text",
                      z: 101,
                      style: {
                        x: o.legend.alignText === "left" ? 20 : 90,
                        y: i * 18 + 1,
                        text: formatNumber(c.limit, o.valueFormat, formats),
                        align: o.legend.alignText === "left" ? "left" : "right",
                        fill: "#333",
                        font: "11px sans-serif",
                      },
                    },
                  ]),
                ],
              },
            ]
          : [],
    };
    return { option, notices, attribution: def?.attribution, regions };
  }, [geo, o, data, formats, layout, selection, hint]);

  // A region with a row is a click on its key column's value.
  const onClick = (p: EChartsClick) => {
    const row = built?.regions[p.dataIndex ?? -1]?.row as Row | undefined;
    if (!onDatumClick || !row || !o.keyColumn) return;
    const native = p.event?.event;
    onDatumClick({
      column: o.keyColumn,
      value: row[o.keyColumn],
      row,
      additive: !!(native?.ctrlKey || native?.metaKey),
    });
  };

  // In the editor preview, the view the user pans to is saved as the bounds, once the map has
  // stood still for a moment. Elsewhere moving the map saves nothing.
  const latest = useRef({ stored, onOptionsChange });
  latest.current = { stored, onOptionsChange };
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(saveTimer.current), []);
  const onRoam = (chart: echarts.ECharts) => {
    if (!onOptionsChange || !geographic) return;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      const save = latest.current.onOptionsChange;
      const box = chart.isDisposed() ? null : shownBox(chart);
      if (box && save) save({ ...latest.current.stored, bounds: toStoredBounds(box) });
    }, SAVE_DELAY_MS);
  };

  if (state === "missing" || state === "error")
    return <Notices notices={[`The "${o.mapType}" map is not available in this installation.`]} />;
  // The drawing area is always in the page, so that its size is known before the map loads.
  return (
    <div ref={frame} style={frameStyle}>
      {built ? <Notices notices={built.notices} /> : null}
      <div ref={area} style={{ flex: 1, minHeight: 280, position: "relative" }}>
        {state === "loading" || !built ? (
          <Spin />
        ) : (
          <>
            <EChart
              option={built.option}
              onClick={onDatumClick ? onClick : undefined}
              onEvent={{ name: "georoam", handler: (_p, chart) => onRoam(chart) }}
            />
            <MapControls container={frame} fullscreen={fullscreen} target={{ seriesIndex: 0 }} />
          </>
        )}
      </div>
      {built?.attribution && (
        <div
          className="choropleth-attribution"
          style={{ fontSize: 11, color: "#888", textAlign: "right" }}
        >
          {built.attribution}
        </div>
      )}
    </div>
  );
}
