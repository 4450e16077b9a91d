import { Space, Tabs } from "antd";
import { optionFields } from "../editorFields";
import type { EditorProps } from "../types";
import { getCohortOptions } from "./cohort";

export function CohortEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const f = optionFields(getCohortOptions(stored), set, data.columns);
  return (
    <Tabs
      items={[
        {
          key: "columns",
          label: "Columns",
          children: (
            <>
              {f.column("Date (Bucket)", "dateColumn")}
              {f.column("Stage", "stageColumn")}
              {f.column("Bucket Population Size", "totalColumn")}
              {f.column("Stage Value", "valueColumn")}
            </>
          ),
        },
        {
          key: "options",
          label: "Options",
          children: (
            <>
              {f.select("Time Interval", "timeInterval", [
                { value: "daily", label: "Daily" },
                { value: "weekly", label: "Weekly" },
                { value: "monthly", label: "Monthly" },
              ])}
              {f.select("Mode", "mode", [
                { value: "diagonal", label: "Fill gaps with zeros" },
                { value: "simple", label: "Show data as is" },
              ])}
            </>
          ),
        },
        {
          key: "colors",
          label: "Colors",
          children: (
            <Space orientation="vertical">
              {f.color("Min Color", "colors.min")}
              {f.color("Max Color", "colors.max")}
              {f.number("Steps", "colors.steps", { min: 3, max: 20, whenEmpty: 7 })}
            </Space>
          ),
        },
        {
          key: "appearance",
          label: "Appearance",
          children: (
            <>
              {f.text("Time Column Title", "timeColumnTitle")}
              {f.text("People Column Title", "peopleColumnTitle")}
              {f.text("Stage Column Title", "stageColumnTitle", {
                hint: "{{ @ }} is the stage number",
              })}
              {f.text("Number Values Format", "numberFormat")}
              {f.text("Percent Values Format", "percentFormat")}
              {f.text("No Value Placeholder", "noValuePlaceholder")}
              {f.switch("Show Tooltips", "showTooltips")}
              {f.switch("Normalize Values to Percentage", "percentValues")}
            </>
          ),
        },
      ]}
    />
  );
}
