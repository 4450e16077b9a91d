// The Data Labels tab: whether values are written on the chart, and the formats of numbers,
// percentages, dates and the label text.
import { SwitchField, TextField } from "../../components/controls";
import type { ChartTabProps } from "./tabProps";

const TYPES_WITH_LABELS = ["line", "area", "column", "scatter", "pie", "heatmap"];

export function DataLabelsTab({ options, set }: ChartTabProps) {
  return (
    <>
      {TYPES_WITH_LABELS.includes(options.globalSeriesType) ? (
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
}
