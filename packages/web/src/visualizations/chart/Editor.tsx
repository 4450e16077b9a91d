// The chart editor: one tab per part of the chart, each in editor/. This module reads the
// options and the series the chart draws, which several tabs need.
import { Tabs } from "antd";
import { useMemo } from "react";
import { columnOptions } from "../components/controls";
import type { EditorProps } from "../types";
import { XAxisTab, YAxisTab } from "./editor/AxesTabs";
import { ColorsTab } from "./editor/ColorsTab";
import { DataLabelsTab } from "./editor/DataLabelsTab";
import { GeneralTab } from "./editor/GeneralTab";
import { SeriesTab } from "./editor/SeriesTab";
import { getChartOptions } from "./options";
import { prepareChart, preparePies } from "./prepare";

export function ChartEditor({
  options: stored,
  data,
  formats,
  onOptionsChange,
  onReplaceOptions,
}: EditorProps) {
  const options = useMemo(() => getChartOptions(stored, formats), [stored, formats]);
  const type = options.globalSeriesType;
  const swapped = !!options.swappedAxes;
  const tab = { options, set: onOptionsChange };

  // The column mapping is replaced whole: a column has one role, and a role it loses is gone.
  const setMapping = (role: string, columns: string[]) => {
    const next: Record<string, string> = {};
    for (const [c, r] of Object.entries(options.columnMapping))
      if (r !== role && !columns.includes(c)) next[c] = r;
    for (const c of columns) next[c] = role;
    onReplaceOptions({ ...stored, ...options, columnMapping: next });
  };

  const prepared = useMemo(
    () => (type === "pie" || type === "heatmap" ? null : prepareChart(data, options)),
    [data, options, type],
  );
  const seriesKeys = prepared?.series.map((s) => s.key) ?? [
    ...new Set(preparePies(data, options).pies.map((p) => p.key)),
  ];
  const seriesColors = prepared?.series.map((s) => s.color) ?? [];

  const general = (
    <GeneralTab
      {...tab}
      columns={columnOptions(data.columns)}
      formats={formats}
      onMappingChange={setMapping}
    />
  );
  const items = [{ key: "general", label: "General", children: general }];
  if (type !== "pie" && type !== "custom") {
    items.push({ key: "x", label: swapped ? "Y Axis" : "X Axis", children: <XAxisTab {...tab} /> });
    items.push({ key: "y", label: swapped ? "X Axis" : "Y Axis", children: <YAxisTab {...tab} /> });
  }
  if (type !== "custom") {
    const colors = (
      <ColorsTab {...tab} data={data} seriesKeys={seriesKeys} seriesColors={seriesColors} />
    );
    items.push({
      key: "series",
      label: "Series",
      children: <SeriesTab {...tab} seriesKeys={seriesKeys} />,
    });
    items.push({ key: "colors", label: "Colors", children: colors });
    items.push({ key: "labels", label: "Data Labels", children: <DataLabelsTab {...tab} /> });
  }
  return <Tabs items={items} />;
}
