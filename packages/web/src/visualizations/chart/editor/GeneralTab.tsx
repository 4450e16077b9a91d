// The General tab: chart type, the columns each role takes, and the settings of the chart type.
import { MultiSelectField, SelectField } from "../../components/controls";
import { optionFields } from "../../editorFields";
import type { VisualizationFormats } from "../../types";
import { CHART_TYPES, readMapping, type ColumnMapping } from "../options";
import { ClickFields, CustomCodeFields } from "./ClickFields";
import type { ChartTabProps } from "./tabProps";

const BUBBLE_SIZE_MODES = [
  { value: "area", label: "Area" },
  { value: "diameter", label: "Diameter" },
];
const PIE_DIRECTIONS = [
  { value: "counterclockwise", label: "Counterclockwise" },
  { value: "clockwise", label: "Clockwise" },
];
const LEGEND_ORDERS = [
  { value: "normal", label: "Normal" },
  { value: "reversed", label: "Reversed" },
];
const LINE_SHAPES = [
  { value: "linear", label: "Linear" },
  { value: "spline", label: "Smooth" },
  { value: "hv", label: "Step (horizontal first)" },
  { value: "vh", label: "Step (vertical first)" },
];

interface GeneralTabProps extends ChartTabProps {
  /** The result's columns, as choices. */
  columns: { value: string; label: string }[];
  formats: VisualizationFormats;
  /** Gives these columns the role (x, y, series...), taking it from any other column. */
  onMappingChange: (role: string, columns: string[]) => void;
}

export function GeneralTab({ options, set, columns, formats, onMappingChange }: GeneralTabProps) {
  const type = options.globalSeriesType;
  const mapping = readMapping(options);
  const swapped = !!options.swappedAxes;
  const f = optionFields(options, set);
  // The column that takes a one-column role; clearing it leaves the role to none.
  const roleColumn = (label: string, role: Exclude<keyof ColumnMapping, "y">) => (
    <SelectField
      label={label}
      value={mapping[role]}
      options={columns}
      allowClear
      onChange={(v) => onMappingChange(role, v ? [v] : [])}
    />
  );

  // A new type applies to every series; horizontal bars are reset, and pies show their labels.
  const setType = (t: string) => {
    const seriesOptions: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options.seriesOptions))
      seriesOptions[k] = { ...v, type: t };
    set({ globalSeriesType: t, seriesOptions, swappedAxes: false, showDataLabels: t === "pie" });
  };

  return (
    <>
      <SelectField
        label="Chart Type"
        value={type}
        options={CHART_TYPES.filter(
          (t) => t.value !== "custom" || formats.allowCustomJSVisualizations || type === "custom",
        )}
        onChange={(v) => v && setType(v)}
      />
      {["column", "line", "box"].includes(type)
        ? f.switch("Horizontal Chart", "swappedAxes")
        : null}
      {roleColumn(swapped ? "Y Column" : "X Column", "x")}
      <MultiSelectField
        label={swapped ? "X Columns" : "Y Columns"}
        value={mapping.y}
        options={columns}
        onChange={(v) => onMappingChange("y", v)}
      />
      {type !== "heatmap" && type !== "custom" ? roleColumn("Group by", "series") : null}
      {!["custom", "bubble", "heatmap"].includes(type)
        ? roleColumn("Errors column", "yError")
        : null}
      {type === "bubble" ||
      Object.values(options.seriesOptions).some((s) => s.type === "bubble") ? (
        <>
          {roleColumn("Bubble Size Column", "size")}
          {f.number("Bubble Size Coefficient", "coefficient", { whenEmpty: 1 })}
          {f.select("Bubble Size Proportional To", "sizemode", BUBBLE_SIZE_MODES)}
        </>
      ) : null}
      {type === "heatmap" ? roleColumn("Color Column", "zVal") : null}
      {type === "pie" ? (
        <>
          {f.select("Direction", "direction.type", PIE_DIRECTIONS)}
          {f.switch("Sort", "piesort")}
        </>
      ) : null}
      {type !== "custom" && type !== "heatmap" ? (
        <>
          {/* One select for two options: hidden is legend.enabled false. */}
          <SelectField
            label="Legend Placement"
            value={options.legend.enabled ? options.legend.placement : "hidden"}
            options={[
              { value: "hidden", label: "Hide legend" },
              { value: "auto", label: "Right" },
              { value: "below", label: "Bottom" },
            ]}
            onChange={(v) =>
              set({ legend: v === "hidden" ? { enabled: false } : { enabled: true, placement: v } })
            }
          />
          {f.select("Legend Items Order", "legend.traceorder", LEGEND_ORDERS, {
            disabled: !options.legend.enabled,
          })}
          {f.switch("Hide Legend of a Single Series", "legend.hideWhenOneSeries", {
            disabled: !options.legend.enabled,
          })}
        </>
      ) : null}
      {type === "box" ? f.switch("Show All Points", "showpoints") : null}
      {["line", "area", "column"].includes(type) ? (
        <>
          <SelectField
            label="Stacking"
            value={options.series.stacking ?? "none"}
            options={[
              { value: "none", label: "Disabled" },
              { value: "stack", label: "Stack" },
            ]}
            onChange={(v) => set({ series: { stacking: v === "stack" ? "stack" : null } })}
          />
          {f.switch("Normalize values to percentage", "series.percentValues")}
        </>
      ) : null}
      {["line", "area"].includes(type) ? f.select("Line Shape", "lineShape", LINE_SHAPES) : null}
      {!["custom", "heatmap", "bubble"].includes(type) ? (
        <SelectField
          label="Missing and NULL values"
          value={options.missingValuesAsZero ? 1 : 0}
          options={[
            { value: 1, label: "Convert to 0 and display" },
            { value: 0, label: "Do not display" },
          ]}
          onChange={(v) => set({ missingValuesAsZero: v === 1 })}
        />
      ) : null}
      {type !== "custom" ? (
        <ClickFields options={options} set={set} />
      ) : (
        <CustomCodeFields options={options} set={set} />
      )}
    </>
  );
}
