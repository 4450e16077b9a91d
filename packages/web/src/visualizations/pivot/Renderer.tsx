// PIVOT: drag attributes between the unused list, rows and columns; pick a renderer and an
// aggregator; filter values per attribute. The aggregation is pivot.ts.
import { Button, Checkbox, Input, Popover, Select, Space, Tag } from "antd";
import { FilterOutlined } from "@ant-design/icons";
import { useEffect, useMemo, useState, type DragEvent, type ReactNode } from "react";
import { EChart } from "../components/EChart";
import { Notices } from "../components/Notice";
import type { Options, RendererProps } from "../types";
import { pivotChartOption } from "./chartOption";
import { markRendered } from "../lib/renderMark";
import { PivotTable } from "./PivotTable";
import {
  AGGREGATORS,
  RENDERERS,
  aggregatorArity,
  getPivotOptions,
  pivot,
  pivotInput,
  pivotToTsv,
  type PivotOptions,
  type PivotResult,
} from "./pivot";

type Zone = "unused" | "rows" | "cols";

export function PivotRenderer({ options: stored, data, formats, onOptionsChange }: RendererProps) {
  const [state, setState] = useState<PivotOptions>(() => getPivotOptions(stored));
  useEffect(() => setState(getPivotOptions(stored)), [stored]);
  const { records, order } = useMemo(() => pivotInput(data, formats), [data, formats]);
  const attributes = useMemo(
    () => data.columns.map((c) => c.name).filter((n) => !state.hiddenAttributes.includes(n)),
    [data.columns, state.hiddenAttributes],
  );
  // Attributes the result no longer has are left out of the table and named in a notice.
  const missing = useMemo(() => {
    const names = new Set(data.columns.map((c) => c.name));
    return [...new Set([...state.rows, ...state.cols, ...state.vals])].filter((a) => !names.has(a));
  }, [data.columns, state.rows, state.cols, state.vals]);
  const shown = useMemo(() => {
    const keep = (list: string[]) => list.filter((a) => !missing.includes(a));
    return { ...state, rows: keep(state.rows), cols: keep(state.cols), vals: keep(state.vals) };
  }, [state, missing]);
  const result = useMemo(() => pivot(records, shown, order), [records, shown, order]);
  useEffect(() => markRendered("PIVOT"), [result]);

  const change = (changes: Partial<PivotOptions>) => {
    const next = { ...state, ...changes };
    setState(next);
    onOptionsChange?.(next as Options);
  };

  const drop = (zone: Zone) => (e: DragEvent) => {
    e.preventDefault();
    const attr = e.dataTransfer.getData("text/plain");
    if (!attributes.includes(attr)) return;
    const rows = state.rows.filter((a) => a !== attr);
    const cols = state.cols.filter((a) => a !== attr);
    if (zone === "rows") rows.push(attr);
    if (zone === "cols") cols.push(attr);
    change({ rows, cols });
  };

  const chip = (attr: string) => (
    <Tag
      key={attr}
      draggable
      onDragStart={(e) => e.dataTransfer.setData("text/plain", attr)}
      style={{ cursor: "move", marginBottom: 4 }}
      data-testid={`pivot-attr-${attr}`}
    >
      {attr}{" "}
      <ValueFilter
        attr={attr}
        records={records}
        order={order[attr]}
        excluded={state.valueFilter[attr] ?? {}}
        limit={state.menuLimit}
        onChange={(ex) => change({ valueFilter: { ...state.valueFilter, [attr]: ex } })}
      />
    </Tag>
  );
  const zone = (name: Zone, children: ReactNode, label: string) => (
    <div
      onDragOver={(e) => e.preventDefault()}
      onDrop={drop(name)}
      aria-label={label}
      style={{
        minHeight: 34,
        padding: 4,
        border: "1px dashed #d9d9d9",
        borderRadius: 6,
        background: "#fafafa",
      }}
    >
      {children}
    </div>
  );
  // The rows or columns zone: its attributes' chips, or a hint while it has none.
  const axisZone = (name: "rows" | "cols", label: string, hint: string) =>
    zone(
      name,
      <>
        {state[name].map(chip)}
        {state[name].length === 0 ? <span style={{ color: "#bfbfbf" }}>{hint}</span> : null}
      </>,
      label,
    );

  const showControls = !state.controls?.enabled;
  const unused = attributes.filter(
    (a) =>
      !state.rows.includes(a) && !state.cols.includes(a) && !state.hiddenFromDragDrop.includes(a),
  );
  const arity = aggregatorArity(state.aggregatorName);
  const valueAttrs = attributes.filter((a) => !state.hiddenFromAggregators.includes(a));

  return (
    <div style={{ overflow: "auto", height: "100%" }} data-testid="pivot-visualization">
      {showControls ? (
        <div style={{ display: "grid", gridTemplateColumns: "220px 1fr", gap: 6, marginBottom: 8 }}>
          <Space orientation="vertical" size={4}>
            <Select
              size="small"
              style={{ width: "100%" }}
              value={state.rendererName}
              options={RENDERERS.map((r) => ({ value: r, label: r }))}
              onChange={(v) => change({ rendererName: v })}
              aria-label="Renderer"
            />
            <Select
              size="small"
              style={{ width: "100%" }}
              value={state.aggregatorName}
              options={AGGREGATORS.map((a) => ({ value: a, label: a }))}
              onChange={(v) => change({ aggregatorName: v })}
              aria-label="Aggregator"
            />
            {Array.from({ length: arity }, (_, i) => (
              <Select
                key={i}
                size="small"
                style={{ width: "100%" }}
                placeholder="Value"
                value={state.vals[i]}
                options={valueAttrs.map((a) => ({ value: a, label: a }))}
                onChange={(v) => {
                  const vals = [...state.vals];
                  vals[i] = v;
                  change({ vals });
                }}
              />
            ))}
          </Space>
          {zone("unused", unused.map(chip), "Unused attributes")}
          {axisZone("rows", "Row attributes", "Drop row attributes here")}
          {axisZone("cols", "Column attributes", "Drop column attributes here")}
        </div>
      ) : null}
      <Notices notices={missing.map((a) => `Column "${a}" is not in the result.`)} />
      <PivotOutput result={result} options={shown} />
    </div>
  );
}

function ValueFilter({
  attr,
  records,
  order,
  excluded,
  limit,
  onChange,
}: {
  attr: string;
  records: Record<string, string>[];
  /** Dates list by time. */
  order?: (a: string, b: string) => number;
  excluded: Record<string, boolean>;
  limit: number;
  onChange: (ex: Record<string, boolean>) => void;
}) {
  const [search, setSearch] = useState("");
  const values = useMemo(
    () => [...new Set(records.map((r) => r[attr] ?? ""))].sort(order),
    [records, attr, order],
  );
  const shown = values
    .filter((v) => v.toLowerCase().includes(search.toLowerCase()))
    .slice(0, limit);
  const active = Object.values(excluded).some(Boolean);
  return (
    <Popover
      trigger="click"
      title={attr}
      content={
        <div style={{ maxHeight: 260, overflow: "auto", minWidth: 200 }}>
          <Input
            size="small"
            placeholder="Filter values"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ marginBottom: 6 }}
          />
          <Space style={{ marginBottom: 6 }}>
            <Button size="small" onClick={() => onChange({})}>
              Select All
            </Button>
            <Button
              size="small"
              onClick={() => onChange(Object.fromEntries(values.map((v) => [v, true])))}
            >
              Select None
            </Button>
          </Space>
          {values.length > limit ? (
            <div style={{ color: "#8c8c8c" }}>(too many values to list)</div>
          ) : null}
          {shown.map((v) => (
            <div key={v}>
              <Checkbox
                checked={!excluded[v]}
                onChange={(e) => onChange({ ...excluded, [v]: !e.target.checked })}
              >
                {v}
              </Checkbox>
            </div>
          ))}
        </div>
      }
    >
      <FilterOutlined
        style={{ color: active ? "#2251d1" : "#bfbfbf", cursor: "pointer" }}
        onMouseDown={(e) => e.stopPropagation()}
      />
    </Popover>
  );
}

function PivotOutput({ result, options }: { result: PivotResult; options: PivotOptions }) {
  const name = options.rendererName;
  if (name === "Exportable TSV") {
    return (
      <Input.TextArea
        readOnly
        value={pivotToTsv(result, options)}
        autoSize={{ minRows: 6, maxRows: 30 }}
        style={{ fontFamily: "monospace" }}
      />
    );
  }
  if (name.includes("Chart")) {
    return (
      <div style={{ height: 360 }}>
        <EChart option={pivotChartOption(result, name, options.cols.length > 0)} />
      </div>
    );
  }
  return <PivotTable result={result} options={options} />;
}
