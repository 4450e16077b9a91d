import { Space, Tabs } from "antd";
import { optionFields } from "../editorFields";
import { MAPS } from "../lib/geo";
import { editorTab } from "../editorTab";
import type { EditorProps } from "../types";
import { BoundsSettings } from "./BoundsSettings";
import { getChoroplethOptions } from "./choropleth";

const choices = (values: string[]) => values.map((v) => ({ value: v, label: v }));

export function ChoroplethEditor({
  options: stored,
  data,
  formats,
  onOptionsChange: set,
  onReplaceOptions,
}: EditorProps) {
  const o = getChoroplethOptions(stored, formats.choroplethAvailableMaps);
  const f = optionFields(o, set, data.columns);
  const map = MAPS.find((m) => m.key === o.mapType);
  const maps = MAPS.filter((m) => formats.choroplethAvailableMaps.includes(m.key));
  return (
    <Tabs
      items={[
        editorTab(
          "General",
          <>
            {f.select(
              "Map",
              "mapType",
              maps.map((m) => ({ value: m.key, label: m.name })),
            )}
            {f.column("Key Column", "keyColumn")}
            {f.select("Target Field", "targetField", map?.fields ?? [], {
              placeholder: "Choose field...",
            })}
            {f.column("Value Column", "valueColumn")}
          </>,
        ),
        editorTab(
          "Colors",
          <>
            {f.select("Clustering mode", "clusteringMode", [
              { value: "q", label: "quantile" },
              { value: "e", label: "equidistant" },
              { value: "k", label: "k-means" },
            ])}
            {f.number("Steps", "steps", { min: 3, max: 11, whenEmpty: 5 })}
            <Space wrap>
              {f.color("Min Color", "colors.min")}
              {f.color("Max Color", "colors.max")}
              {f.color("No value color", "colors.noValue")}
              {f.color("Background color", "colors.background")}
              {f.color("Borders color", "colors.borders")}
            </Space>
          </>,
        ),
        editorTab(
          "Format",
          <>
            {f.text("Value format", "valueFormat")}
            {f.text("Value placeholder", "noValuePlaceholder")}
            {f.switch("Show legend", "legend.visible")}
            {f.select(
              "Legend position",
              "legend.position",
              choices(["top-left", "top-right", "bottom-left", "bottom-right"]),
            )}
            {f.select(
              "Legend text alignment",
              "legend.alignText",
              choices(["left", "center", "right"]),
            )}
            {f.switch("Show tooltip", "tooltip.enabled")}
            {f.text("Tooltip template", "tooltip.template", {
              multiline: true,
              hint: "{{ @@value }}, {{ @@name }} and other {{ @@property }}, or {{ column }}",
            })}
            {f.switch("Show popup", "popup.enabled")}
            {f.text("Popup template", "popup.template", { multiline: true })}
          </>,
        ),
        editorTab(
          "Bounds",
          <BoundsSettings
            mapType={o.mapType}
            bounds={o.bounds}
            onChange={(bounds) => set({ bounds })}
            onClear={() => {
              // Unset, as Redash leaves it: the whole map is fitted.
              const { bounds: _dropped, ...rest } = stored;
              onReplaceOptions(rest);
            }}
          />,
        ),
      ]}
    />
  );
}
