import { Space, Tabs } from "antd";
import {
  ColorField,
  Field,
  SelectField,
  SwitchField,
  TextField,
  columnOptions,
} from "../components/controls";
import type { EditorProps } from "../types";
import { TILE_SERVERS, getMapOptions, markerGroups } from "./markers";

const SHAPES = [
  { value: "marker", label: "Marker + Icon" },
  { value: "doughnut", label: "Circle" },
  { value: "circle-dot", label: "Circle Dot" },
  { value: "circle", label: "Circle + Icon" },
  { value: "rectangle-dot", label: "Square Dot" },
  { value: "rectangle", label: "Square + Icon" },
];

export function MapEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getMapOptions(stored);
  const cols = columnOptions(data.columns);
  const groups = markerGroups(data, o).groups;
  const tiles = TILE_SERVERS.some((t) => t.url === o.mapTileUrl)
    ? TILE_SERVERS
    : [...TILE_SERVERS, { label: o.mapTileUrl, url: o.mapTileUrl }];
  return (
    <Tabs
      items={[
        {
          key: "general",
          label: "General",
          children: (
            <>
              <SelectField
                label="Latitude Column Name"
                value={o.latColName}
                options={cols}
                onChange={(v) => set({ latColName: v })}
              />
              <SelectField
                label="Longitude Column Name"
                value={o.lonColName}
                options={cols}
                onChange={(v) => set({ lonColName: v })}
              />
              <SelectField
                label="Group By"
                value={o.classify}
                options={cols}
                allowClear
                placeholder="none"
                onChange={(v) => set({ classify: v })}
              />
            </>
          ),
        },
        {
          key: "groups",
          label: "Groups",
          children: groups.map((g) => (
            <Field key={g.name} label={g.name}>
              <ColorField
                value={g.color}
                onChange={(v) => set({ groups: { [g.name]: { color: v } } })}
              />
            </Field>
          )),
        },
        {
          key: "format",
          label: "Format",
          children: (
            <>
              <SwitchField
                label="Show tooltip"
                checked={o.tooltip.enabled}
                onChange={(v) => set({ tooltip: { enabled: v } })}
              />
              <TextField
                label="Tooltip template"
                multiline
                disabled={!o.tooltip.enabled}
                value={o.tooltip.template}
                onChange={(v) => set({ tooltip: { template: v } })}
                hint="Use {{ column }}; HTML is sanitised."
              />
              <SwitchField
                label="Show popup"
                checked={o.popup.enabled}
                onChange={(v) => set({ popup: { enabled: v } })}
              />
              <TextField
                label="Popup template"
                multiline
                disabled={!o.popup.enabled}
                value={o.popup.template}
                onChange={(v) => set({ popup: { template: v } })}
              />
            </>
          ),
        },
        {
          key: "style",
          label: "Style",
          children: (
            <>
              <SelectField
                label="Map Tiles"
                value={o.mapTileUrl}
                options={tiles.map((t) => ({ value: t.url, label: t.label }))}
                onChange={(v) => set({ mapTileUrl: v })}
              />
              <TextField
                label="Custom tile URL"
                value={o.mapTileUrl}
                onChange={(v) => set({ mapTileUrl: v })}
                hint="A {z}/{x}/{y} template. Markers draw over the bundled world outline."
              />
              <SwitchField
                label="Cluster Markers"
                checked={o.clusterMarkers}
                onChange={(v) => set({ clusterMarkers: v })}
              />
              <SwitchField
                label="Override default style"
                checked={o.customizeMarkers}
                disabled={!!o.classify}
                onChange={(v) => set({ customizeMarkers: v })}
              />
              {o.customizeMarkers && !o.classify ? (
                <>
                  <SelectField
                    label="Shape"
                    value={o.iconShape}
                    options={SHAPES}
                    onChange={(v) => set({ iconShape: v })}
                  />
                  <TextField
                    label="Icon"
                    value={o.iconFont}
                    onChange={(v) => set({ iconFont: v })}
                  />
                  <Space wrap>
                    <ColorField
                      label="Icon Color"
                      value={o.foregroundColor}
                      onChange={(v) => set({ foregroundColor: v })}
                    />
                    <ColorField
                      label="Background Color"
                      value={o.backgroundColor}
                      onChange={(v) => set({ backgroundColor: v })}
                    />
                    <ColorField
                      label="Border Color"
                      value={o.borderColor}
                      onChange={(v) => set({ borderColor: v })}
                    />
                  </Space>
                </>
              ) : null}
            </>
          ),
        },
      ]}
    />
  );
}
