// The X Axis and Y Axis tabs (their labels swap on a horizontal chart).
import { Typography } from "antd";
import { SwitchField } from "../../components/controls";
import { optionFields } from "../../editorFields";
import { AxisFields } from "./AxisFields";
import type { ChartTabProps } from "./tabProps";

export function XAxisTab({ options, set }: ChartTabProps) {
  const f = optionFields(options, set);
  return (
    <>
      <AxisFields axis={options.xAxis} onChange={(c) => set({ xAxis: c })} withRange={false} />
      {f.switch("Sort Values", "sortX")}
      {f.switch("Reverse Order", "reverseX")}
      {/* Labels are shown unless turned off. */}
      <SwitchField
        label="Show Labels"
        checked={options.xAxis.labels?.enabled !== false}
        onChange={(v) => set({ xAxis: { labels: { enabled: v } } })}
      />
    </>
  );
}

/** The left axis; the right one too, except on heatmaps and horizontal charts. */
export function YAxisTab({ options, set }: ChartTabProps) {
  const type = options.globalSeriesType;
  const f = optionFields(options, set);
  return (
    <>
      <Typography.Title level={5}>Left Y Axis</Typography.Title>
      <AxisFields axis={options.yAxis[0]} onChange={(c) => set({ yAxis: [c] })} withRange />
      {type !== "heatmap" && !options.swappedAxes ? (
        <>
          <Typography.Title level={5}>Right Y Axis</Typography.Title>
          <AxisFields axis={options.yAxis[1]} onChange={(c) => set({ yAxis: [{}, c] })} withRange />
          {f.switch("Align Y Axes at Zero", "alignYAxesAtZero")}
        </>
      ) : null}
      {type === "heatmap" ? (
        <>
          {f.switch("Sort Values", "sortY")}
          {f.switch("Reverse Order", "reverseY")}
        </>
      ) : null}
    </>
  );
}
