// The ::filter / ::multi-filter controls shown above a visualization (catalogue 1.6).
import { Button, Select, Space } from "antd";
import { formatDate } from "./lib/dateFormat";
import { valueText } from "./lib/template";
import type { ResultFilter } from "./resultFilters";
import { DEFAULT_FORMATS, type VisualizationFormats } from "./types";

export interface ResultFiltersProps {
  filters: ResultFilter[];
  onChange: (filters: ResultFilter[]) => void;
  formats?: Pick<VisualizationFormats, "dateTimeFormat">;
}

function label(value: unknown, dateTimeFormat: string): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return formatDate(value, dateTimeFormat);
  return valueText(value);
}

export function ResultFilters({
  filters,
  onChange,
  formats = DEFAULT_FORMATS,
}: ResultFiltersProps) {
  if (filters.length === 0) return null;
  const update = (index: number, current: unknown) =>
    onChange(filters.map((f, i) => (i === index ? { ...f, current } : f)));
  return (
    <Space wrap style={{ marginBottom: 12 }} data-testid="result-filters">
      {filters.map((f, i) => {
        const options = f.values.map((v, vi) => ({
          value: vi,
          label: label(v, formats.dateTimeFormat),
        }));
        const indexOf = (v: unknown) => f.values.indexOf(v);
        return (
          <div key={f.name}>
            <div style={{ fontWeight: 500, marginBottom: 4 }}>{f.friendlyName}</div>
            {f.multiple ? (
              <Select<number[]>
                mode="multiple"
                style={{ minWidth: 220 }}
                maxTagCount="responsive"
                value={(Array.isArray(f.current) ? f.current : [])
                  .map(indexOf)
                  .filter((n) => n >= 0)}
                options={options}
                optionFilterProp="label"
                onChange={(v) =>
                  update(
                    i,
                    v.map((n) => f.values[n]),
                  )
                }
                popupRender={(menu) => (
                  <>
                    <Space style={{ padding: "4px 8px" }}>
                      <Button size="small" type="link" onClick={() => update(i, [...f.values])}>
                        Select All
                      </Button>
                      <Button size="small" type="link" onClick={() => update(i, [])}>
                        Clear
                      </Button>
                    </Space>
                    {menu}
                  </>
                )}
              />
            ) : (
              <Select<number>
                style={{ minWidth: 180 }}
                showSearch={{ optionFilterProp: "label" }}
                value={indexOf(f.current)}
                options={options}
                onChange={(v) => update(i, f.values[v])}
              />
            )}
          </div>
        );
      })}
    </Space>
  );
}
