import { Space, Tabs } from "antd";
import {
  CheckField,
  NumberField,
  SelectField,
  TextField,
  columnOptions,
} from "../components/controls";
import type { EditorProps } from "../types";
import { getFunnelOptions } from "./funnel";

export function FunnelEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getFunnelOptions(stored, data);
  const cols = columnOptions(data.columns);
  return (
    <Tabs
      items={[
        {
          key: "general",
          label: "General",
          children: (
            <>
              <SelectField
                label="Step Column"
                value={o.stepCol.colName}
                options={cols}
                onChange={(v) => set({ stepCol: { colName: v } })}
              />
              <TextField
                label="Step Column Title"
                value={o.stepCol.displayAs}
                onChange={(v) => set({ stepCol: { displayAs: v } })}
              />
              <SelectField
                label="Value Column"
                value={o.valueCol.colName}
                options={cols}
                onChange={(v) => set({ valueCol: { colName: v } })}
              />
              <TextField
                label="Value Column Title"
                value={o.valueCol.displayAs}
                onChange={(v) => set({ valueCol: { displayAs: v } })}
              />
              <CheckField
                label="Custom Sorting"
                checked={!o.autoSort}
                onChange={(v) => set({ autoSort: !v })}
              />
              {!o.autoSort ? (
                <>
                  <SelectField
                    label="Sort Column"
                    value={o.sortKeyCol.colName}
                    options={cols}
                    onChange={(v) => set({ sortKeyCol: { colName: v } })}
                  />
                  <CheckField
                    label="Reverse Order"
                    checked={o.sortKeyCol.reverse}
                    onChange={(v) => set({ sortKeyCol: { reverse: v } })}
                  />
                </>
              ) : null}
            </>
          ),
        },
        {
          key: "appearance",
          label: "Appearance",
          children: (
            <>
              <TextField
                label="Number Values Format"
                value={o.numberFormat}
                onChange={(v) => set({ numberFormat: v })}
              />
              <TextField
                label="Percent Values Format"
                value={o.percentFormat}
                onChange={(v) => set({ percentFormat: v })}
              />
              <NumberField
                label="Items Count Limit"
                value={o.itemsLimit}
                min={2}
                onChange={(v) => set({ itemsLimit: v ?? 100 })}
              />
              <Space>
                <NumberField
                  label="Min Percent Value"
                  value={o.percentValuesRange.min}
                  onChange={(v) => set({ percentValuesRange: { min: v ?? 0.01 } })}
                />
                <NumberField
                  label="Max Percent Value"
                  value={o.percentValuesRange.max}
                  onChange={(v) => set({ percentValuesRange: { max: v ?? 1000 } })}
                />
              </Space>
            </>
          ),
        },
      ]}
    />
  );
}
