import { Tabs } from "antd";
import { SelectField, columnOptions } from "../components/controls";
import { optionFields } from "../editorFields";
import { editorTab } from "../editorTab";
import { toNumber } from "../lib/numberFormat";
import type { EditorProps } from "../types";
import { getCounterOptions, rowIndex } from "./counter";

export function CounterEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getCounterOptions(stored);
  const f = optionFields(o, set, data.columns);
  const sample = data.rows.length
    ? data.rows[rowIndex(o.rowNumber, data.rows.length)]?.[o.counterColName]
    : null;
  const numeric = o.countRow || toNumber(sample) !== null;
  const general = (
    <>
      {f.text("Counter Label", "counterLabel")}
      {f.column("Counter Value Column Name", "counterColName", { disabled: o.countRow })}
      {f.number("Counter Value Row Number", "rowNumber", { disabled: o.countRow, whenEmpty: 1 })}
      {/* No target is stored as "" (Redash's value), shown as its own choice. */}
      <SelectField
        label="Target Value Column Name"
        value={o.targetColName ?? ""}
        options={[{ value: "", label: "No target value" }, ...columnOptions(data.columns)]}
        onChange={(v) => set({ targetColName: v ?? "" })}
      />
      {f.number("Target Value Row Number", "targetRowNumber", { whenEmpty: 1 })}
      {f.check("Count Rows", "countRow")}
    </>
  );
  // The number formatting applies only to a numeric value.
  const numericOnly = { disabled: !numeric };
  const format = (
    <>
      {f.number("Formatting Decimal Place", "stringDecimal", {
        min: 0,
        max: 20,
        whenEmpty: 0,
        ...numericOnly,
      })}
      {f.text("Formatting Decimal Character", "stringDecChar", numericOnly)}
      {f.text("Formatting Thousands Separator", "stringThouSep", numericOnly)}
      {f.text("Formatting String Prefix", "stringPrefix", numericOnly)}
      {f.text("Formatting String Suffix", "stringSuffix", numericOnly)}
      {f.check("Format Target Value", "formatTargetValue")}
    </>
  );
  return <Tabs items={[editorTab("General", general), editorTab("Format", format)]} />;
}
