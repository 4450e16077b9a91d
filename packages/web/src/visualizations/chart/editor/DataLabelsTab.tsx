// The Data Labels tab: whether values are written on the chart, and the formats of numbers,
// percentages, dates and the label text.
import { optionFields } from "../../editorFields";
import type { ChartTabProps } from "./tabProps";

const TYPES_WITH_LABELS = ["line", "area", "column", "scatter", "pie", "heatmap"];

export function DataLabelsTab({ options, set }: ChartTabProps) {
  const f = optionFields(options, set);
  return (
    <>
      {TYPES_WITH_LABELS.includes(options.globalSeriesType)
        ? f.switch("Show Data Labels", "showDataLabels")
        : null}
      {f.text("Number Values Format", "numberFormat", { hint: "numeral.js format, e.g. 0,0.00" })}
      {f.text("Percent Values Format", "percentFormat")}
      {f.text("Date/Time Values Format", "dateTimeFormat")}
      {f.text("Data Labels", "textFormat", {
        placeholder: "(auto)",
        hint: "Use {{ @@name }}, {{ @@x }}, {{ @@y }}, {{ @@yPercent }}, {{ @@yError }}, {{ @@size }} and {{ column }}.",
      })}
    </>
  );
}
