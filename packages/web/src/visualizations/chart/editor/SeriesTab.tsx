// The Series tab: each series' order, name, axis (left or right) and own chart type.
import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { Button, Input, Select, Typography } from "antd";
import { CHART_TYPES } from "../options";
import type { ChartTabProps } from "./tabProps";

const SERIES_TYPES = CHART_TYPES.filter((t) =>
  ["line", "column", "area", "scatter", "bubble", "box"].includes(t.value),
);

interface SeriesTabProps extends ChartTabProps {
  /** The series as drawn now, in their order. */
  seriesKeys: string[];
}

export function SeriesTab({ options, set, seriesKeys }: SeriesTabProps) {
  const type = options.globalSeriesType;
  const swapped = !!options.swappedAxes;

  // The order is stored as each series' zIndex.
  const moveSeries = (index: number, delta: number) => {
    const keys = [...seriesKeys];
    const [k] = keys.splice(index, 1);
    keys.splice(index + delta, 0, k);
    const seriesOptions: Record<string, unknown> = {};
    keys.forEach((key, i) => (seriesOptions[key] = { zIndex: i }));
    set({ seriesOptions });
  };

  return (
    <div>
      {seriesKeys.length === 0 ? (
        <Typography.Text type="secondary">No series yet: choose the Y columns.</Typography.Text>
      ) : null}
      {seriesKeys.map((key, i) => {
        const own = options.seriesOptions[key] ?? {};
        return (
          <div key={key} style={{ display: "flex", gap: 8, alignItems: "center", marginBottom: 8 }}>
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              onClick={() => moveSeries(i, -1)}
              aria-label="Move up"
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              disabled={i === seriesKeys.length - 1}
              onClick={() => moveSeries(i, 1)}
              aria-label="Move down"
            />
            <Input
              style={{ flex: 2 }}
              placeholder={key}
              value={own.name ?? ""}
              onChange={(e) => set({ seriesOptions: { [key]: { name: e.target.value } } })}
            />
            {type !== "pie" && type !== "heatmap" && !swapped ? (
              <Select
                style={{ width: 90 }}
                value={own.yAxis === 1 ? 1 : 0}
                options={[
                  { value: 0, label: "left" },
                  { value: 1, label: "right" },
                ]}
                onChange={(v) => set({ seriesOptions: { [key]: { yAxis: v } } })}
              />
            ) : null}
            {type !== "pie" && type !== "heatmap" ? (
              <Select
                style={{ width: 110 }}
                value={own.type || type}
                options={SERIES_TYPES}
                onChange={(v) => set({ seriesOptions: { [key]: { type: v } } })}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
