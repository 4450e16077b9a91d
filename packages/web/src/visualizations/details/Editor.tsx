import { Tabs } from "antd";
import { useMemo } from "react";
import { ColumnsEditor } from "../table/ColumnsEditor";
import { getDetailsOptions, type ColumnOptions } from "../table/columns";
import type { EditorProps } from "../types";

export function DetailsEditor({ options: stored, data, formats, onReplaceOptions }: EditorProps) {
  const options = useMemo(
    () => getDetailsOptions(stored, data.columns, formats),
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
              kind="details"
              columns={options.columns as ColumnOptions[]}
              onChange={(columns) => onReplaceOptions({ ...stored, ...options, columns })}
            />
          ),
        },
      ]}
    />
  );
}
