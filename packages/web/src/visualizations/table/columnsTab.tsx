// The Columns tab that opens both the TABLE and DETAILS editors.
import { useMemo } from "react";
import { editorTab } from "../editorTab";
import type { EditorProps, Options, QueryResultColumn, VisualizationFormats } from "../types";
import { ColumnsEditor } from "./ColumnsEditor";
import type { ColumnOptions } from "./columns";

/**
 * The options filled in by `read` (as the renderer sees them), and the Columns tab; an edit
 * replaces the stored columns with the whole list, settings filled in.
 */
export function useColumnsTab<O extends Options & { columns: ColumnOptions[] }>(
  kind: "table" | "details",
  read: (stored: Options, columns: QueryResultColumn[], formats: VisualizationFormats) => O,
  { options: stored, data, formats, onReplaceOptions, drillDownTargets }: EditorProps,
) {
  const options = useMemo(
    () => read(stored, data.columns, formats),
    [read, stored, data.columns, formats],
  );
  const tab = editorTab(
    "Columns",
    <ColumnsEditor
      kind={kind}
      columns={options.columns}
      drillDownTargets={drillDownTargets}
      onChange={(columns) => onReplaceOptions({ ...stored, ...options, columns })}
    />,
  );
  return { options, tab };
}
