// DETAILS: one row at a time as a label/value list, with a pager when there are several rows.
import { Descriptions, Pagination } from "antd";
import { useMemo, useState } from "react";
import { CellContent, ColumnHeader } from "../table/Cell";
import { getDetailsOptions, visibleColumns } from "../table/columns";
import type { RendererProps } from "../types";

const KNOWN = new Set(["string", "number", "datetime", "boolean", "link", "image", "json"]);

export function DetailsRenderer({ options: stored, data, formats }: RendererProps) {
  const columns = useMemo(
    () => visibleColumns(getDetailsOptions(stored, data.columns, formats).columns),
    [stored, data.columns, formats],
  );
  const [page, setPage] = useState(1);
  if (data.rows.length === 0) return null;
  const index = Math.min(page, data.rows.length) - 1;
  const row = data.rows[index];
  const ctx = {
    nullValue: formats.nullValue,
    tableCellMaxJSONSize: formats.tableCellMaxJSONSize,
    thousandsSeparator: formats.thousandsSeparator,
    decimalSeparator: formats.decimalSeparator,
  };
  return (
    <div data-testid="details-visualization">
      <Descriptions
        bordered
        size="small"
        column={1}
        items={columns.map((c) => ({
          key: c.name,
          label: <ColumnHeader column={c} />,
          children: (
            <div style={{ textAlign: c.alignContent }}>
              <CellContent
                value={row[c.name]}
                row={row}
                column={KNOWN.has(String(c.displayAs)) ? c : { ...c, displayAs: "string" }}
                ctx={ctx}
              />
            </div>
          ),
        }))}
      />
      {data.rows.length > 1 ? (
        <Pagination
          style={{ marginTop: 8 }}
          size="small"
          simple
          current={index + 1}
          pageSize={1}
          total={data.rows.length}
          onChange={setPage}
        />
      ) : null}
    </div>
  );
}
