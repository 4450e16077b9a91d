// The Columns tab that opens both the TABLE and DETAILS editors.
import type { TabsProps } from "antd";
import { useMemo } from "react";
import type { EditorProps, Options, QueryResultColumn, VisualizationFormats } from "../types";
import { ColumnsEditor } from "./ColumnsEditor";
import type { ColumnOptions } from "./columns";

type TabItem = NonNullable<TabsProps["items"]>[number];

/**
 * The options filled in by `read` (as the renderer sees them), and the Columns tab; an edit
 * replaces the stored columns with the whole list, settings filled in.
 */
export function useColumnsTab<O extends Options & { columns: ColumnOptions[] }>(
  kind: "table" | "details",
  read: (stored: Options, columns: QueryResultColumn[], formats: VisualizationFormats) => O,
  { options: stored, data, formats, onReplaceOptions }: EditorProps,
): { options: O; tab: TabItem } {
  const options = useMemo(
    () => read(stored, data.columns, formats),
    [read, stored, data.columns, formats],
  );
  const tab = {
    key: "columns",
    label: "Columns",
    children: (
      <ColumnsEditor
        kind={kind}
        columns={options.columns}
        onChange={(columns) => onReplaceOptions({ ...stored, ...options, columns })}
      />
    ),
  };
  return { options, tab };
}
