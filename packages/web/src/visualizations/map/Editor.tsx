import { Space, Tabs } from "antd";
import { ColorField } from "../components/controls";
import { optionFields } from "../editorFields";
import { editorTab } from "../editorTab";
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
  const f = optionFields(o, set, data.columns);
  const groups = markerGroups(data, o).groups;
  const tiles = TILE_SERVERS.some((t) => t.url === o.mapTileUrl)
    ? TILE_SERVERS
    : [...TILE_SERVERS, { label: o.mapTileUrl, url: o.mapTileUrl }];
  return (
    <Tabs
      items={[
        editorTab(
          "General",
          <>
            {f.column("Latitude Column Name", "latColName")}
            {f.column("Longitude Column Name", "lonColName")}
            {f.column("Group By", "classify", { allowClear: true, placeholder: "none" })}
          </>,
        ),
        editorTab(
          "Groups",
          groups.map((g) => (
            <ColorField
              key={g.name}
              label={g.name}
              value={g.color}
              onChange={(v) => set({ groups: { [g.name]: { color: v } } })}
            />
          )),
        ),
        editorTab(
          "Format",
          <>
            {f.switch("Show tooltip", "tooltip.enabled")}
            {f.text("Tooltip template", "tooltip.template", {
              multiline: true,
              disabled: !o.tooltip.enabled,
              hint: "Use {{ column }}; HTML is sanitised.",
            })}
            {f.switch("Show popup", "popup.enabled")}
            {f.text("Popup template", "popup.template", {
              multiline: true,
              disabled: !o.popup.enabled,
            })}
          </>,
        ),
        editorTab(
          "Style",
          <>
            {f.select(
              "Map Tiles",
              "mapTileUrl",
              tiles.map((t) => ({ value: t.url, label: t.label })),
            )}
            {f.text("Custom tile URL", "mapTileUrl", {
              hint: "A {z}/{x}/{y} template. Markers draw over the bundled world outline.",
            })}
            {f.switch("Cluster Markers", "clusterMarkers")}
            {f.switch("Override default style", "customizeMarkers", { disabled: !!o.classify })}
            {o.customizeMarkers && !o.classify ? (
              <>
                {f.select("Shape", "iconShape", SHAPES)}
                {f.text("Icon", "iconFont")}
                <Space wrap>
                  {f.color("Icon Color", "foregroundColor")}
                  {f.color("Background Color", "backgroundColor")}
                  {f.color("Border Color", "borderColor")}
                </Space>
              </>
            ) : null}
          </>,
        ),
      ]}
    />
  );
}
