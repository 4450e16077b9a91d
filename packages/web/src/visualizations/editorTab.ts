// The tabs of the options editors.
import type { ReactNode } from "react";

/** One tab of an editor's antd Tabs: its key is its label in lower case ("Colors" → "colors"). */
export function editorTab(label: string, children: ReactNode) {
  return { key: label.toLowerCase(), label, children };
}
