// The Columns tab shared by TABLE and DETAILS: order, visibility and each column's settings.
import { Button, Collapse, Radio, Select, Space } from "antd";
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
} from "@ant-design/icons";
import { CheckField, Field, TextField } from "../components/controls";
import { DISPLAY_AS, type ColumnOptions } from "./columns";
import { DrillDownColumnSettings } from "./DrillDownColumnSettings";

export function ColumnsEditor({
  columns,
  onChange,
  kind,
}: {
  columns: ColumnOptions[];
  onChange: (columns: ColumnOptions[]) => void;
  kind: "table" | "details";
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
            onChange={(changes) => update(c.name, changes)}
          />
        ),
      }))}
    />
  );
}

function ColumnSettings({
  column: c,
  kind,
  columnNames,
  onChange,
}: {
  column: ColumnOptions;
  kind: "table" | "details";
  columnNames: readonly string[];
  onChange: (changes: Partial<ColumnOptions>) => void;
}) {
  return (
    <>
      <TextField label="Title" value={c.title} onChange={(v) => onChange({ title: v })} />
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
      {kind === "table" ? (
        <CheckField
          label="Use for search"
          checked={c.allowSearch}
          onChange={(v) => onChange({ allowSearch: v })}
        />
      ) : null}
      <TextField
        label="Description"
        value={c.description}
        onChange={(v) => onChange({ description: v })}
      />
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
          <CheckField
            label="Allow HTML content"
            checked={c.allowHTML}
            onChange={(v) => onChange({ allowHTML: v })}
          />
          <CheckField
            label="Highlight links"
            checked={c.highlightLinks}
            disabled={!c.allowHTML}
            onChange={(v) => onChange({ highlightLinks: v })}
          />
        </>
      ) : null}
      {c.displayAs === "number" ? (
        <TextField
          label="Number format"
          value={c.numberFormat}
          hint="numeral.js format, e.g. 0,0.00"
          onChange={(v) => onChange({ numberFormat: v })}
        />
      ) : null}
      {c.displayAs === "datetime" ? (
        <TextField
          label="Date/Time format"
          value={c.dateTimeFormat}
          hint="e.g. DD/MM/YYYY HH:mm"
          onChange={(v) => onChange({ dateTimeFormat: v })}
        />
      ) : null}
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
          <TextField
            label="URL template"
            value={c.imageUrlTemplate}
            onChange={(v) => onChange({ imageUrlTemplate: v })}
          />
          <TextField
            label="Width"
            value={c.imageWidth}
            onChange={(v) => onChange({ imageWidth: v })}
          />
          <TextField
            label="Height"
            value={c.imageHeight}
            onChange={(v) => onChange({ imageHeight: v })}
          />
          <TextField
            label="Title template"
            value={c.imageTitleTemplate}
            onChange={(v) => onChange({ imageTitleTemplate: v })}
            hint="Use {{ @ }} for this cell and {{ column }} for others."
          />
        </>
      ) : null}
      {c.displayAs === "link" ? (
        <>
          <DrillDownColumnSettings column={c} columnNames={columnNames} onChange={onChange}>
            <TextField
              label="URL template"
              value={c.linkUrlTemplate}
              onChange={(v) => onChange({ linkUrlTemplate: v })}
            />
            <CheckField
              label="Open in new tab"
              checked={c.linkOpenInNewTab}
              onChange={(v) => onChange({ linkOpenInNewTab: v })}
            />
          </DrillDownColumnSettings>
          <TextField
            label="Text template"
            value={c.linkTextTemplate}
            onChange={(v) => onChange({ linkTextTemplate: v })}
          />
          <TextField
            label="Title template"
            value={c.linkTitleTemplate}
            onChange={(v) => onChange({ linkTitleTemplate: v })}
            hint="Use {{ @ }} for this cell and {{ column }} for others."
          />
        </>
      ) : null}
    </>
  );
}
