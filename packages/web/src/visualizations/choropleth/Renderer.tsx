import { Spin } from "antd";
import { useMemo } from "react";
import { EChart } from "../components/EChart";
import { Notices } from "../components/Notice";
import { useGeoMap } from "../components/useGeoMap";
import { identityProjection, MAPS } from "../lib/geo";
import { formatNumber } from "../lib/numberFormat";
import { sanitizeHtml } from "../lib/sanitize";
import { renderTemplate, valueText } from "../lib/template";
import type { RendererProps, Row } from "../types";
import { colorClasses, colorFor, getChoroplethOptions, regionValue, rowsByKey } from "./choropleth";

export function ChoroplethRenderer({ options: stored, data, formats }: RendererProps) {
  const o = useMemo(
    () => getChoroplethOptions(stored, formats.choroplethAvailableMaps),
    [stored, formats.choroplethAvailableMaps],
  );
  const { geo, state } = useGeoMap(o.mapType);
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
    const legendItems = [...classes].reverse();
    const option = {
      backgroundColor: o.colors.background,
      tooltip: {
        show: o.tooltip.enabled,
        trigger: "item",
        formatter: (p: { dataIndex: number }) => fill(o.tooltip.template, regions[p.dataIndex]),
      },
      series: [
        {
          type: "map",
          map: `sightline-${o.mapType}`,
          projection: def?.projected ? identityProjection : undefined,
          roam: "move",
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
            itemStyle: { areaColor: colorFor(r.value, classes, o.colors.noValue) },
          })),
        },
      ],
      graphic:
        o.legend.visible && classes.length
          ? [
              {
                type: "group",
                [o.legend.position.includes("left") ? "left" : "right"]: 10,
                [o.legend.position.includes("top") ? "top" : "bottom"]: 10,
                children: legendItems.flatMap((c, i) => [
                  {
                    type: "rect",
                    shape: { x: 0, y: i * 18, width: 14, height: 14 },
                    style: { fill: c.color },
                  },
                  {
                    type: "text",
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
              },
            ]
          : [],
    };
    return { option, notices, attribution: def?.attribution };
  }, [geo, o, data, formats]);

  if (state === "loading") return <Spin />;
  if (state === "missing" || state === "error")
    return <Notices notices={[`The "${o.mapType}" map is not available in this installation.`]} />;
  if (!built) return null;
  return (
    <div style={{ height: "100%", minHeight: 320, display: "flex", flexDirection: "column" }}>
      <Notices notices={built.notices} />
      <div style={{ flex: 1, minHeight: 280 }}>
        <EChart option={built.option} />
      </div>
      {built.attribution && (
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
