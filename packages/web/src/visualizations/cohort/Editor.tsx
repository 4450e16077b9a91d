import { Space, Tabs } from "antd";
import { optionFields } from "../editorFields";
import { editorTab } from "../editorTab";
import type { EditorProps } from "../types";
import { getCohortOptions } from "./cohort";

export function CohortEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const f = optionFields(getCohortOptions(stored), set, data.columns);
  return (
    <Tabs
      items={[
        editorTab(
          "Columns",
          <>
            {f.column("Date (Bucket)", "dateColumn")}
            {f.column("Stage", "stageColumn")}
            {f.column("Bucket Population Size", "totalColumn")}
            {f.column("Stage Value", "valueColumn")}
          </>,
        ),
        editorTab(
          "Options",
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
          </>,
        ),
        editorTab(
          "Colors",
          <Space orientation="vertical">
            {f.color("Min Color", "colors.min")}
            {f.color("Max Color", "colors.max")}
            {f.number("Steps", "colors.steps", { min: 3, max: 20, whenEmpty: 7 })}
          </Space>,
        ),
        editorTab(
          "Appearance",
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
          </>,
        ),
      ]}
    />
  );
}
