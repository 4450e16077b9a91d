import { Space, Tabs } from "antd";
import {
  ColorField,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  columnOptions,
} from "../components/controls";
import { MAPS } from "../lib/geo";
import type { EditorProps } from "../types";
import { BoundsSettings } from "./BoundsSettings";
import { getChoroplethOptions } from "./choropleth";

export function ChoroplethEditor({
  options: stored,
  data,
  formats,
  onOptionsChange: set,
  onReplaceOptions,
}: EditorProps) {
  const o = getChoroplethOptions(stored, formats.choroplethAvailableMaps);
  const cols = columnOptions(data.columns);
  const map = MAPS.find((m) => m.key === o.mapType);
  const maps = MAPS.filter((m) => formats.choroplethAvailableMaps.includes(m.key));
  return (
    <Tabs
      items={[
        {
          key: "general",
          label: "General",
          children: (
            <>
              <SelectField
                label="Map"
                value={o.mapType}
                options={maps.map((m) => ({ value: m.key, label: m.name }))}
                onChange={(v) => set({ mapType: v })}
              />
              <SelectField
                label="Key Column"
                value={o.keyColumn}
                options={cols}
                onChange={(v) => set({ keyColumn: v })}
              />
              <SelectField
                label="Target Field"
                value={o.targetField}
                options={map?.fields ?? []}
                placeholder="Choose field..."
                onChange={(v) => set({ targetField: v })}
              />
              <SelectField
                label="Value Column"
                value={o.valueColumn}
                options={cols}
                onChange={(v) => set({ valueColumn: v })}
              />
            </>
          ),
        },
        {
          key: "colors",
          label: "Colors",
          children: (
            <>
              <SelectField
                label="Clustering mode"
                value={o.clusteringMode}
                options={[
                  { value: "q", label: "quantile" },
                  { value: "e", label: "equidistant" },
                  { value: "k", label: "k-means" },
                ]}
                onChange={(v) => set({ clusteringMode: v })}
              />
              <NumberField
                label="Steps"
                value={o.steps}
                min={3}
                max={11}
                onChange={(v) => set({ steps: v ?? 5 })}
              />
              <Space wrap>
                <ColorField
                  label="Min Color"
                  value={o.colors.min}
                  onChange={(v) => set({ colors: { min: v } })}
                />
                <ColorField
                  label="Max Color"
                  value={o.colors.max}
                  onChange={(v) => set({ colors: { max: v } })}
                />
                <ColorField
                  label="No value color"
                  value={o.colors.noValue}
                  onChange={(v) => set({ colors: { noValue: v } })}
                />
                <ColorField
                  label="Background color"
                  value={o.colors.background}
                  onChange={(v) => set({ colors: { background: v } })}
                />
                <ColorField
                  label="Borders color"
                  value={o.colors.borders}
                  onChange={(v) => set({ colors: { borders: v } })}
                />
              </Space>
            </>
          ),
        },
        {
          key: "format",
          label: "Format",
          children: (
            <>
              <TextField
                label="Value format"
                value={o.valueFormat}
                onChange={(v) => set({ valueFormat: v })}
              />
              <TextField
                label="Value placeholder"
                value={o.noValuePlaceholder}
                onChange={(v) => set({ noValuePlaceholder: v })}
              />
              <SwitchField
                label="Show legend"
                checked={o.legend.visible}
                onChange={(v) => set({ legend: { visible: v } })}
              />
              <SelectField
                label="Legend position"
                value={o.legend.position}
                options={["top-left", "top-right", "bottom-left", "bottom-right"].map((p) => ({
                  value: p,
                  label: p,
                }))}
                onChange={(v) => set({ legend: { position: v } })}
              />
              <SelectField
                label="Legend text alignment"
                value={o.legend.alignText}
                options={["left", "center", "right"].map((p) => ({ value: p, label: p }))}
                onChange={(v) => set({ legend: { alignText: v } })}
              />
              <SwitchField
                label="Show tooltip"
                checked={o.tooltip.enabled}
                onChange={(v) => set({ tooltip: { enabled: v } })}
              />
              <TextField
                label="Tooltip template"
                multiline
                value={o.tooltip.template}
                onChange={(v) => set({ tooltip: { template: v } })}
                hint="{{ @@value }}, {{ @@name }} and other {{ @@property }}, or {{ column }}"
              />
              <SwitchField
                label="Show popup"
                checked={o.popup.enabled}
                onChange={(v) => set({ popup: { enabled: v } })}
              />
              <TextField
                label="Popup template"
                multiline
                value={o.popup.template}
                onChange={(v) => set({ popup: { template: v } })}
              />
            </>
          ),
        },
        {
          key: "bounds",
          label: "Bounds",
          children: (
            <BoundsSettings
              mapType={o.mapType}
              bounds={o.bounds}
              onChange={(bounds) => set({ bounds })}
              onClear={() => {
                // Unset, as Redash leaves it: the whole map is fitted.
                const { bounds: _dropped, ...rest } = stored;
                onReplaceOptions(rest);
              }}
            />
          ),
        },
      ]}
    />
  );
}
