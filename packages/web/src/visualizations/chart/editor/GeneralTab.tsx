// The General tab: chart type, the columns each role takes, and the settings of the chart type.
import { MultiSelectField, NumberField, SelectField, SwitchField } from "../../components/controls";
import type { VisualizationFormats } from "../../types";
import { CHART_TYPES, readMapping } from "../options";
import { ClickFields, CustomCodeFields } from "./ClickFields";
import type { ChartTabProps } from "./tabProps";

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
  const single = (role: string) => (v: string | null) => onMappingChange(role, v ? [v] : []);

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
      {["column", "line", "box"].includes(type) ? (
        <SwitchField
          label="Horizontal Chart"
          checked={swapped}
          onChange={(v) => set({ swappedAxes: v })}
        />
      ) : null}
      <SelectField
        label={swapped ? "Y Column" : "X Column"}
        value={mapping.x}
        options={columns}
        allowClear
        onChange={single("x")}
      />
      <MultiSelectField
        label={swapped ? "X Columns" : "Y Columns"}
        value={mapping.y}
        options={columns}
        onChange={(v) => onMappingChange("y", v)}
      />
      {type !== "heatmap" && type !== "custom" ? (
        <SelectField
          label="Group by"
          value={mapping.series}
          options={columns}
          allowClear
          onChange={single("series")}
        />
      ) : null}
      {!["custom", "bubble", "heatmap"].includes(type) ? (
        <SelectField
          label="Errors column"
          value={mapping.yError}
          options={columns}
          allowClear
          onChange={single("yError")}
        />
      ) : null}
      {type === "bubble" ||
      Object.values(options.seriesOptions).some((s) => s.type === "bubble") ? (
        <>
          <SelectField
            label="Bubble Size Column"
            value={mapping.size}
            options={columns}
            allowClear
            onChange={single("size")}
          />
          <NumberField
            label="Bubble Size Coefficient"
            value={options.coefficient}
            onChange={(v) => set({ coefficient: v ?? 1 })}
          />
          <SelectField
            label="Bubble Size Proportional To"
            value={options.sizemode}
            options={[
              { value: "area", label: "Area" },
              { value: "diameter", label: "Diameter" },
            ]}
            onChange={(v) => set({ sizemode: v })}
          />
        </>
      ) : null}
      {type === "heatmap" ? (
        <SelectField
          label="Color Column"
          value={mapping.zVal}
          options={columns}
          allowClear
          onChange={single("zVal")}
        />
      ) : null}
      {type === "pie" ? (
        <>
          <SelectField
            label="Direction"
            value={options.direction.type}
            options={[
              { value: "counterclockwise", label: "Counterclockwise" },
              { value: "clockwise", label: "Clockwise" },
            ]}
            onChange={(v) => set({ direction: { type: v } })}
          />
          <SwitchField
            label="Sort"
            checked={options.piesort}
            onChange={(v) => set({ piesort: v })}
          />
        </>
      ) : null}
      {type !== "custom" && type !== "heatmap" ? (
        <>
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
          <SelectField
            label="Legend Items Order"
            value={options.legend.traceorder}
            disabled={!options.legend.enabled}
            options={[
              { value: "normal", label: "Normal" },
              { value: "reversed", label: "Reversed" },
            ]}
            onChange={(v) => set({ legend: { traceorder: v } })}
          />
        </>
      ) : null}
      {type === "box" ? (
        <SwitchField
          label="Show All Points"
          checked={options.showpoints}
          onChange={(v) => set({ showpoints: v })}
        />
      ) : null}
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
          <SwitchField
            label="Normalize values to percentage"
            checked={options.series.percentValues}
            onChange={(v) => set({ series: { percentValues: v } })}
          />
        </>
      ) : null}
      {["line", "area"].includes(type) ? (
        <SelectField
          label="Line Shape"
          value={options.lineShape}
          options={[
            { value: "linear", label: "Linear" },
            { value: "spline", label: "Smooth" },
            { value: "hv", label: "Step (horizontal first)" },
            { value: "vh", label: "Step (vertical first)" },
          ]}
          onChange={(v) => set({ lineShape: v })}
        />
      ) : null}
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
