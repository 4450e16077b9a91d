import { Space, Tabs } from "antd";
import { CheckField } from "../components/controls";
import { optionFields } from "../editorFields";
import { editorTab } from "../editorTab";
import type { EditorProps } from "../types";
import { getFunnelOptions } from "./funnel";

export function FunnelEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getFunnelOptions(stored, data);
  const f = optionFields(o, set, data.columns);
  return (
    <Tabs
      items={[
        editorTab(
          "General",
          <>
            {f.column("Step Column", "stepCol.colName")}
            {f.text("Step Column Title", "stepCol.displayAs")}
            {f.column("Value Column", "valueCol.colName")}
            {f.text("Value Column Title", "valueCol.displayAs")}
            {/* Stored the other way round: autoSort is on when custom sorting is off. */}
            <CheckField
              label="Custom Sorting"
              checked={!o.autoSort}
              onChange={(v) => set({ autoSort: !v })}
            />
            {!o.autoSort ? (
              <>
                {f.column("Sort Column", "sortKeyCol.colName")}
                {f.check("Reverse Order", "sortKeyCol.reverse")}
              </>
            ) : null}
          </>,
        ),
        editorTab(
          "Appearance",
          <>
            {f.text("Number Values Format", "numberFormat")}
            {f.text("Percent Values Format", "percentFormat")}
            {f.number("Items Count Limit", "itemsLimit", { min: 2, whenEmpty: 100 })}
            <Space>
              {f.number("Min Percent Value", "percentValuesRange.min", { whenEmpty: 0.01 })}
              {f.number("Max Percent Value", "percentValuesRange.max", { whenEmpty: 1000 })}
            </Space>
          </>,
        ),
      ]}
    />
  );
}
