// The Columns tab shared by TABLE and DETAILS: order, visibility and each column's settings.
import { Button, Collapse, Radio, Select, Space } from "antd";
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
} from "@ant-design/icons";
import { Field, TextField } from "../components/controls";
import { optionFields } from "../editorFields";
import type { EditorProps } from "../types";
import { DISPLAY_AS, type ColumnOptions } from "./columns";
import { DrillDownColumnSettings } from "./DrillDownColumnSettings";

export function ColumnsEditor({
  columns,
  onChange,
  kind,
  drillDownTargets,
}: {
  columns: ColumnOptions[];
  onChange: (columns: ColumnOptions[]) => void;
  kind: "table" | "details";
  drillDownTargets?: EditorProps["drillDownTargets"];
}) {
  const update = (name: string, changes: Partial<ColumnOptions>) =>
    onChange(columns.map((c) => (c.name === name ? { ...c, ...changes } : c)));
  const move = (index: number, delta: number) => {
    const next = [...columns];
    const [c] = next.splice(index, 1);
    next.splice(index + delta, 0, c);
    onChange(next.map((col, i) => ({ ...col, order: 100000 + i })));
  };
  return (
    <Collapse
      size="small"
      items={columns.map((c, i) => ({
        key: c.name,
        label: (
          <Space>
            <span style={{ opacity: c.visible === false ? 0.5 : 1 }}>{c.title || c.name}</span>
          </Space>
        ),
        extra: (
          <Space onClick={(e) => e.stopPropagation()}>
            <Button
              size="small"
              type="text"
              aria-label="Move up"
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              onClick={() => move(i, -1)}
            />
            <Button
              size="small"
              type="text"
              aria-label="Move down"
              icon={<ArrowDownOutlined />}
              disabled={i === columns.length - 1}
              onClick={() => move(i, 1)}
            />
            <Button
              size="small"
              type="text"
              aria-label={c.visible === false ? "Show column" : "Hide column"}
              icon={c.visible === false ? <EyeInvisibleOutlined /> : <EyeOutlined />}
              onClick={() => update(c.name, { visible: c.visible === false })}
            />
          </Space>
        ),
        children: (
          <ColumnSettings
            column={c}
            kind={kind}
            columnNames={columns.map((col) => col.name)}
            drillDownTargets={drillDownTargets}
            onChange={(changes) => update(c.name, changes)}
          />
        ),
      }))}
    />
  );
}

const TEMPLATE_HINT = "Use {{ @ }} for this cell and {{ column }} for others.";

function ColumnSettings({
  column: c,
  kind,
  columnNames,
  drillDownTargets,
  onChange,
}: {
  column: ColumnOptions;
  kind: "table" | "details";
  columnNames: readonly string[];
  drillDownTargets?: EditorProps["drillDownTargets"];
  onChange: (changes: Partial<ColumnOptions>) => void;
}) {
  const f = optionFields(c, onChange);
  return (
    <>
      {f.text("Title", "title")}
      <Field label="Alignment">
        <Radio.Group
          value={c.alignContent}
          onChange={(e) => onChange({ alignContent: e.target.value })}
          optionType="button"
          options={[
            { value: "left", label: "Left" },
            { value: "center", label: "Center" },
            { value: "right", label: "Right" },
          ]}
        />
      </Field>
      {kind === "table" ? f.check("Use for search", "allowSearch") : null}
      {f.text("Description", "description")}
      <Field label="Display as">
        <Select
          style={{ width: "100%" }}
          value={c.displayAs}
          options={DISPLAY_AS}
          onChange={(v) => onChange({ displayAs: v })}
        />
      </Field>
      {c.displayAs === "string" ? (
        <>
          {f.check("Allow HTML content", "allowHTML")}
          {f.check("Highlight links", "highlightLinks", { disabled: !c.allowHTML })}
        </>
      ) : null}
      {c.displayAs === "number"
        ? f.text("Number format", "numberFormat", { hint: "numeral.js format, e.g. 0,0.00" })
        : null}
      {c.displayAs === "datetime"
        ? f.text("Date/Time format", "dateTimeFormat", { hint: "e.g. DD/MM/YYYY HH:mm" })
        : null}
      {c.displayAs === "boolean" ? (
        <>
          <TextField
            label="Value for FALSE"
            value={c.booleanValues?.[0]}
            onChange={(v) => onChange({ booleanValues: [v, c.booleanValues?.[1] ?? "true"] })}
          />
          <TextField
            label="Value for TRUE"
            value={c.booleanValues?.[1]}
            onChange={(v) => onChange({ booleanValues: [c.booleanValues?.[0] ?? "false", v] })}
          />
        </>
      ) : null}
      {c.displayAs === "image" ? (
        <>
          {f.text("URL template", "imageUrlTemplate")}
          {f.text("Width", "imageWidth")}
          {f.text("Height", "imageHeight")}
          {f.text("Title template", "imageTitleTemplate", { hint: TEMPLATE_HINT })}
        </>
      ) : null}
      {c.displayAs === "link" ? (
        <>
          <DrillDownColumnSettings
            column={c}
            columnNames={columnNames}
            targets={drillDownTargets}
            onChange={onChange}
          >
            {f.text("URL template", "linkUrlTemplate")}
            {f.check("Open in new tab", "linkOpenInNewTab")}
          </DrillDownColumnSettings>
          {f.text("Text template", "linkTextTemplate")}
          {f.text("Title template", "linkTitleTemplate", { hint: TEMPLATE_HINT })}
        </>
      ) : null}
    </>
  );
}
