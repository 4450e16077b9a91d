import { Button, Input, Select, Space, Tabs, Typography } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { useMemo } from "react";
import {
  CheckField,
  ColorField,
  Field,
  MultiSelectField,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  columnOptions,
} from "../components/controls";
import { COLOR_SCHEMES } from "../palette";
import type { EditorProps, Options } from "../types";
import { HEATMAP_SCHEMES } from "./echartsOption";
import { CHART_TYPES, axisTitle, getChartOptions, readMapping, type ChartOptions } from "./options";
import { prepareChart, preparePies } from "./prepare";

const AXIS_SCALES = [
  { value: "-", label: "Auto Detect" },
  { value: "datetime", label: "Datetime" },
  { value: "linear", label: "Linear" },
  { value: "logarithmic", label: "Logarithmic" },
  { value: "category", label: "Category" },
];

export function ChartEditor({
  options: stored,
  data,
  formats,
  onOptionsChange,
  onReplaceOptions,
}: EditorProps) {
  const options = useMemo(() => getChartOptions(stored, formats), [stored, formats]);
  const type = options.globalSeriesType;
  const mapping = readMapping(options);
  const cols = columnOptions(data.columns);
  const swapped = !!options.swappedAxes;
  const set = (changes: Options) => onOptionsChange(changes);

  const setMapping = (role: string, columns: string[]) => {
    const next: Record<string, string> = {};
    for (const [c, r] of Object.entries(options.columnMapping))
      if (r !== role && !columns.includes(c)) next[c] = r;
    for (const c of columns) next[c] = role;
    onReplaceOptions({ ...stored, ...options, columnMapping: next });
  };

  const setType = (t: string) => {
    const seriesOptions: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options.seriesOptions))
      seriesOptions[k] = { ...v, type: t };
    set({ globalSeriesType: t, seriesOptions, swappedAxes: false, showDataLabels: t === "pie" });
  };

  const general = (
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
        options={cols}
        allowClear
        onChange={(v) => setMapping("x", v ? [v] : [])}
      />
      <MultiSelectField
        label={swapped ? "X Columns" : "Y Columns"}
        value={mapping.y}
        options={cols}
        onChange={(v) => setMapping("y", v)}
      />
      {type !== "heatmap" && type !== "custom" ? (
        <SelectField
          label="Group by"
          value={mapping.series}
          options={cols}
          allowClear
          onChange={(v) => setMapping("series", v ? [v] : [])}
        />
      ) : null}
      {!["custom", "bubble", "heatmap"].includes(type) ? (
        <SelectField
          label="Errors column"
          value={mapping.yError}
          options={cols}
          allowClear
          onChange={(v) => setMapping("yError", v ? [v] : [])}
        />
      ) : null}
      {type === "bubble" ||
      Object.values(options.seriesOptions).some((s) => s.type === "bubble") ? (
        <>
          <SelectField
            label="Bubble Size Column"
            value={mapping.size}
            options={cols}
            allowClear
            onChange={(v) => setMapping("size", v ? [v] : [])}
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
          options={cols}
          allowClear
          onChange={(v) => setMapping("zVal", v ? [v] : [])}
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
        <>
          <CheckField
            label="Enable click events"
            checked={options.enableLink}
            onChange={(v) => set({ enableLink: v })}
          />
          <CheckField
            label="Open in new tab"
            checked={options.linkOpenNewTab}
            disabled={!options.enableLink}
            onChange={(v) => set({ linkOpenNewTab: v })}
          />
          <TextField
            label="URL template"
            value={options.linkFormat}
            disabled={!options.enableLink}
            placeholder="https://example.com/?x={{ @@x }}"
            hint="Use {{ @@x }}, {{ @@y }}, {{ @@x1 }}, {{ @@y1 }} ... and {{ column }}."
            onChange={(v) => set({ linkFormat: v })}
          />
        </>
      ) : (
        <>
          <TextField
            label="Custom code"
            multiline
            value={options.customCode}
            onChange={(v) => set({ customCode: v })}
            hint="Runs in a sandboxed frame with x, ys and element."
          />
          <CheckField
            label="Show errors in the console"
            checked={options.enableConsoleLogs}
            onChange={(v) => set({ enableConsoleLogs: v })}
          />
          <CheckField
            label="Auto update graph"
            checked={options.autoRedraw}
            onChange={(v) => set({ autoRedraw: v })}
          />
        </>
      )}
    </>
  );

  const axisEditor = (
    axis: ChartOptions["xAxis"],
    onChange: (changes: Options) => void,
    withRange: boolean,
  ) => (
    <>
      <SelectField
        label="Scale"
        value={axis?.type ?? "-"}
        options={
          withRange
            ? AXIS_SCALES.filter(
                (s) =>
                  s.value === "linear" ||
                  s.value === "logarithmic" ||
                  s.value === "datetime" ||
                  s.value === "category",
              )
            : AXIS_SCALES
        }
        onChange={(v) => onChange({ type: v })}
      />
      <TextField
        label="Name"
        value={axisTitle(axis)}
        onChange={(v) => onChange({ title: { text: v } })}
      />
      <TextField
        label="Tick Format"
        value={axis?.tickFormat}
        placeholder={withRange ? ",.2f" : "%Y-%m-%d"}
        hint="d3 format: ,.2f  .0%  %Y-%m-%d"
        onChange={(v) => onChange({ tickFormat: v })}
      />
      {withRange ? (
        <Space>
          <NumberField
            label="Min"
            value={axis?.rangeMin}
            onChange={(v) => onChange({ rangeMin: v })}
          />
          <NumberField
            label="Max"
            value={axis?.rangeMax}
            onChange={(v) => onChange({ rangeMax: v })}
          />
        </Space>
      ) : null}
    </>
  );

  const xAxisTab = (
    <>
      {axisEditor(options.xAxis, (c) => set({ xAxis: c }), false)}
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

  const yAxisTab = (
    <>
      <Typography.Title level={5}>Left Y Axis</Typography.Title>
      {axisEditor(options.yAxis[0], (c) => set({ yAxis: [c] }), true)}
      {type !== "heatmap" && !swapped ? (
        <>
          <Typography.Title level={5}>Right Y Axis</Typography.Title>
          {axisEditor(options.yAxis[1], (c) => set({ yAxis: [{}, c] }), true)}
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

  const prepared = useMemo(
    () => (type === "pie" || type === "heatmap" ? null : prepareChart(data, options)),
    [data, options, type],
  );
  const seriesKeys = prepared?.series.map((s) => s.key) ?? [
    ...new Set(preparePies(data, options).pies.map((p) => p.key)),
  ];

  const moveSeries = (index: number, delta: number) => {
    const keys = [...seriesKeys];
    const [k] = keys.splice(index, 1);
    keys.splice(index + delta, 0, k);
    const seriesOptions: Record<string, unknown> = {};
    keys.forEach((key, i) => (seriesOptions[key] = { zIndex: i }));
    set({ seriesOptions });
  };

  const seriesTab = (
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
                options={CHART_TYPES.filter((t) =>
                  ["line", "column", "area", "scatter", "bubble", "box"].includes(t.value),
                )}
                onChange={(v) => set({ seriesOptions: { [key]: { type: v } } })}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );

  // Each slice's colour as drawn: its own choice, else the scheme's (shown, not "Transparent").
  const pieColors = new Map<string, string>();
  if (type === "pie") {
    for (const pie of preparePies(data, options).pies) {
      for (const slice of pie.slices) {
        if (!pieColors.has(slice.label)) pieColors.set(slice.label, slice.color);
      }
    }
  }
  const pieValues = [...pieColors.keys()];
  const colorsTab = (
    <>
      {type === "heatmap" ? (
        <>
          <SelectField
            label="Color Scheme"
            value={options.colorScheme ?? ""}
            options={[
              { value: "", label: "Default" },
              ...HEATMAP_SCHEMES.map((s) => ({ value: s, label: s })),
              { value: "Custom...", label: "Custom..." },
            ]}
            onChange={(v) => set({ colorScheme: v || null })}
          />
          {options.colorScheme === "Custom..." ? (
            <Space>
              <ColorField
                label="Min Color"
                value={options.heatMinColor}
                onChange={(v) => set({ heatMinColor: v })}
              />
              <ColorField
                label="Max Color"
                value={options.heatMaxColor}
                onChange={(v) => set({ heatMaxColor: v })}
              />
            </Space>
          ) : null}
        </>
      ) : (
        <>
          <SelectField
            label="Color Scheme"
            value={options.color_scheme}
            options={Object.keys(COLOR_SCHEMES).map((s) => ({
              value: s,
              label: s === "Redash" ? "Sightline (default)" : s,
            }))}
            onChange={(v) => set({ color_scheme: v })}
          />
          {(type === "pie" ? pieValues : seriesKeys).map((key, i) => (
            <Field key={key} label={key}>
              <ColorField
                value={
                  type === "pie"
                    ? (options.valuesOptions[key]?.color ?? pieColors.get(key))
                    : (options.seriesOptions[key]?.color ?? prepared?.series[i]?.color)
                }
                onChange={(v) =>
                  set(
                    type === "pie"
                      ? { valuesOptions: { [key]: { color: v } } }
                      : { seriesOptions: { [key]: { color: v } } },
                  )
                }
              />
            </Field>
          ))}
        </>
      )}
    </>
  );

  const labelsTab = (
    <>
      {["line", "area", "column", "scatter", "pie", "heatmap"].includes(type) ? (
        <SwitchField
          label="Show Data Labels"
          checked={options.showDataLabels}
          onChange={(v) => set({ showDataLabels: v })}
        />
      ) : null}
      <TextField
        label="Number Values Format"
        value={options.numberFormat}
        hint="numeral.js format, e.g. 0,0.00"
        onChange={(v) => set({ numberFormat: v })}
      />
      <TextField
        label="Percent Values Format"
        value={options.percentFormat}
        onChange={(v) => set({ percentFormat: v })}
      />
      <TextField
        label="Date/Time Values Format"
        value={options.dateTimeFormat}
        onChange={(v) => set({ dateTimeFormat: v })}
      />
      <TextField
        label="Data Labels"
        value={options.textFormat}
        placeholder="(auto)"
        hint="Use {{ @@name }}, {{ @@x }}, {{ @@y }}, {{ @@yPercent }}, {{ @@yError }}, {{ @@size }} and {{ column }}."
        onChange={(v) => set({ textFormat: v })}
      />
    </>
  );

  const items = [{ key: "general", label: "General", children: general }];
  if (type !== "pie" && type !== "custom") {
    items.push({ key: "x", label: swapped ? "Y Axis" : "X Axis", children: xAxisTab });
    items.push({ key: "y", label: swapped ? "X Axis" : "Y Axis", children: yAxisTab });
  }
  if (type !== "custom") {
    items.push({ key: "series", label: "Series", children: seriesTab });
    items.push({ key: "colors", label: "Colors", children: colorsTab });
    items.push({ key: "labels", label: "Data Labels", children: labelsTab });
  }
  return <Tabs items={items} />;
}
