import { Tabs } from "antd";
import {
  CheckField,
  NumberField,
  SelectField,
  TextField,
  columnOptions,
} from "../components/controls";
import { toNumber } from "../lib/numberFormat";
import type { EditorProps } from "../types";
import { getCounterOptions, rowIndex } from "./counter";

export function CounterEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getCounterOptions(stored);
  const cols = columnOptions(data.columns);
  const sample = data.rows.length
    ? data.rows[rowIndex(o.rowNumber, data.rows.length)]?.[o.counterColName]
    : null;
  const numeric = o.countRow || toNumber(sample) !== null;
  const general = (
    <>
      <TextField
        label="Counter Label"
        value={o.counterLabel}
        onChange={(v) => set({ counterLabel: v })}
      />
      <SelectField
        label="Counter Value Column Name"
        value={o.counterColName}
        options={cols}
        disabled={o.countRow}
        onChange={(v) => set({ counterColName: v })}
      />
      <NumberField
        label="Counter Value Row Number"
        value={o.rowNumber}
        disabled={o.countRow}
        onChange={(v) => set({ rowNumber: v ?? 1 })}
      />
      <SelectField
        label="Target Value Column Name"
        value={o.targetColName ?? ""}
        options={[{ value: "", label: "No target value" }, ...cols]}
        onChange={(v) => set({ targetColName: v ?? "" })}
      />
      <NumberField
        label="Target Value Row Number"
        value={o.targetRowNumber}
        onChange={(v) => set({ targetRowNumber: v ?? 1 })}
      />
      <CheckField label="Count Rows" checked={o.countRow} onChange={(v) => set({ countRow: v })} />
    </>
  );
  const format = (
    <>
      <NumberField
        label="Formatting Decimal Place"
        value={o.stringDecimal}
        min={0}
        max={20}
        disabled={!numeric}
        onChange={(v) => set({ stringDecimal: v ?? 0 })}
      />
      <TextField
        label="Formatting Decimal Character"
        value={o.stringDecChar}
        disabled={!numeric}
        onChange={(v) => set({ stringDecChar: v })}
      />
      <TextField
        label="Formatting Thousands Separator"
        value={o.stringThouSep}
        disabled={!numeric}
        onChange={(v) => set({ stringThouSep: v })}
      />
      <TextField
        label="Formatting String Prefix"
        value={o.stringPrefix}
        disabled={!numeric}
        onChange={(v) => set({ stringPrefix: v })}
      />
      <TextField
        label="Formatting String Suffix"
        value={o.stringSuffix}
        disabled={!numeric}
        onChange={(v) => set({ stringSuffix: v })}
      />
      <CheckField
        label="Format Target Value"
        checked={o.formatTargetValue}
        onChange={(v) => set({ formatTargetValue: v })}
      />
    </>
  );
  return (
    <Tabs
      items={[
        { key: "general", label: "General", children: general },
        { key: "format", label: "Format", children: format },
      ]}
    />
  );
}
