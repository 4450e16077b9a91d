import { Space, Tabs } from "antd";
import {
  ColorField,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  columnOptions,
} from "../components/controls";
import type { EditorProps } from "../types";
import { getCohortOptions } from "./cohort";

export function CohortEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getCohortOptions(stored);
  const cols = columnOptions(data.columns);
  return (
    <Tabs
      items={[
        {
          key: "columns",
          label: "Columns",
          children: (
            <>
              <SelectField
                label="Date (Bucket)"
                value={o.dateColumn}
                options={cols}
                onChange={(v) => set({ dateColumn: v })}
              />
              <SelectField
                label="Stage"
                value={o.stageColumn}
                options={cols}
                onChange={(v) => set({ stageColumn: v })}
              />
              <SelectField
                label="Bucket Population Size"
                value={o.totalColumn}
                options={cols}
                onChange={(v) => set({ totalColumn: v })}
              />
              <SelectField
                label="Stage Value"
                value={o.valueColumn}
                options={cols}
                onChange={(v) => set({ valueColumn: v })}
              />
            </>
          ),
        },
        {
          key: "options",
          label: "Options",
          children: (
            <>
              <SelectField
                label="Time Interval"
                value={o.timeInterval}
                options={[
                  { value: "daily", label: "Daily" },
                  { value: "weekly", label: "Weekly" },
                  { value: "monthly", label: "Monthly" },
                ]}
                onChange={(v) => set({ timeInterval: v })}
              />
              <SelectField
                label="Mode"
                value={o.mode}
                options={[
                  { value: "diagonal", label: "Fill gaps with zeros" },
                  { value: "simple", label: "Show data as is" },
                ]}
                onChange={(v) => set({ mode: v })}
              />
            </>
          ),
        },
        {
          key: "colors",
          label: "Colors",
          children: (
            <Space orientation="vertical">
              <ColorField
                label="Min Color"
                value={o.colors.min}
                onChange={(v) => set({ colors: { min: v } })}
              />
              <ColorField
                label="Max Color"
                value={o.colors.max}
                onChange={(v) => set({ colors: { max: v } })}
              />
              <NumberField
                label="Steps"
                value={o.colors.steps}
                min={3}
                max={20}
                onChange={(v) => set({ colors: { steps: v ?? 7 } })}
              />
            </Space>
          ),
        },
        {
          key: "appearance",
          label: "Appearance",
          children: (
            <>
              <TextField
                label="Time Column Title"
                value={o.timeColumnTitle}
                onChange={(v) => set({ timeColumnTitle: v })}
              />
              <TextField
                label="People Column Title"
                value={o.peopleColumnTitle}
                onChange={(v) => set({ peopleColumnTitle: v })}
              />
              <TextField
                label="Stage Column Title"
                value={o.stageColumnTitle}
                onChange={(v) => set({ stageColumnTitle: v })}
                hint="{{ @ }} is the stage number"
              />
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
              <TextField
                label="No Value Placeholder"
                value={o.noValuePlaceholder}
                onChange={(v) => set({ noValuePlaceholder: v })}
              />
              <SwitchField
                label="Show Tooltips"
                checked={o.showTooltips}
                onChange={(v) => set({ showTooltips: v })}
              />
              <SwitchField
                label="Normalize Values to Percentage"
                checked={o.percentValues}
                onChange={(v) => set({ percentValues: v })}
              />
            </>
          ),
        },
      ]}
    />
  );
}
