import { Tabs } from "antd";
import { SelectField } from "../components/controls";
import { editorTab } from "../editorTab";
import type { EditorProps } from "../types";
import { ITEMS_PER_PAGE, getTableOptions } from "./columns";
import { useColumnsTab } from "./columnsTab";

export function TableEditor(props: EditorProps) {
  const { options, tab } = useColumnsTab("table", getTableOptions, props);
  return (
    <Tabs
      items={[
        tab,
        editorTab(
          "Grid",
          <SelectField
            label="Items per page"
            value={options.itemsPerPage}
            options={ITEMS_PER_PAGE.map((n) => ({ value: n, label: String(n) }))}
            onChange={(v) => props.onOptionsChange({ itemsPerPage: v ?? 25 })}
          />,
        ),
      ]}
    />
  );
}
