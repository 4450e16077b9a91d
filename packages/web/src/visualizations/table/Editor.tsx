import { Tabs } from "antd";
import { useMemo } from "react";
import { SelectField } from "../components/controls";
import type { EditorProps } from "../types";
import { ColumnsEditor } from "./ColumnsEditor";
import { ITEMS_PER_PAGE, getTableOptions } from "./columns";

export function TableEditor({
  options: stored,
  data,
  formats,
  onOptionsChange,
  onReplaceOptions,
}: EditorProps) {
  const options = useMemo(
    () => getTableOptions(stored, data.columns, formats),
    [stored, data.columns, formats],
  );
  return (
    <Tabs
      items={[
        {
          key: "columns",
          label: "Columns",
          children: (
            <ColumnsEditor
              kind="table"
              columns={options.columns}
              onChange={(columns) => onReplaceOptions({ ...stored, ...options, columns })}
            />
          ),
        },
        {
          key: "grid",
          label: "Grid",
          children: (
            <SelectField
              label="Items per page"
              value={options.itemsPerPage}
              options={ITEMS_PER_PAGE.map((n) => ({ value: n, label: String(n) }))}
              onChange={(v) => onOptionsChange({ itemsPerPage: v ?? 25 })}
            />
          ),
        },
      ]}
    />
  );
}
