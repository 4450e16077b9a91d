import { Tabs } from "antd";
import { getDetailsOptions } from "../table/columns";
import { useColumnsTab } from "../table/columnsTab";
import type { EditorProps } from "../types";

export function DetailsEditor(props: EditorProps) {
  const { tab } = useColumnsTab("details", getDetailsOptions, props);
  return <Tabs items={[tab]} />;
}
