// The X Axis and Y Axis tabs (their labels swap on a horizontal chart).
import { Typography } from "antd";
import { SwitchField } from "../../components/controls";
import { AxisFields } from "./AxisFields";
import type { ChartTabProps } from "./tabProps";

export function XAxisTab({ options, set }: ChartTabProps) {
  return (
    <>
      <AxisFields axis={options.xAxis} onChange={(c) => set({ xAxis: c })} withRange={false} />
      <SwitchField
        label="Sort Values"
        checked={options.sortX}
        onChange={(v) => set({ sortX: v })}
      />
      <SwitchField
        label="Reverse Order"
        checked={options.reverseX}
        onChange={(v) => set({ reverseX: v })}
      />
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
  return (
    <>
      <Typography.Title level={5}>Left Y Axis</Typography.Title>
      <AxisFields axis={options.yAxis[0]} onChange={(c) => set({ yAxis: [c] })} withRange />
      {type !== "heatmap" && !options.swappedAxes ? (
        <>
          <Typography.Title level={5}>Right Y Axis</Typography.Title>
          <AxisFields axis={options.yAxis[1]} onChange={(c) => set({ yAxis: [{}, c] })} withRange />
          <SwitchField
            label="Align Y Axes at Zero"
            checked={options.alignYAxesAtZero}
            onChange={(v) => set({ alignYAxesAtZero: v })}
          />
        </>
      ) : null}
      {type === "heatmap" ? (
        <>
          <SwitchField
            label="Sort Values"
            checked={options.sortY}
            onChange={(v) => set({ sortY: v })}
          />
          <SwitchField
            label="Reverse Order"
            checked={options.reverseY}
            onChange={(v) => set({ reverseY: v })}
          />
        </>
      ) : null}
    </>
  );
}
