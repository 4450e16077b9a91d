import { SwitchField } from "../components/controls";
import type { EditorProps } from "../types";
import { getPivotOptions } from "./pivot";

export function PivotEditor({ options: stored, onOptionsChange: set }: EditorProps) {
  const o = getPivotOptions(stored);
  return (
    <>
      {/* controls.enabled is inverted: true hides the controls. */}
      <SwitchField
        label="Show Pivot Controls"
        checked={!o.controls.enabled}
        onChange={(v) => set({ controls: { enabled: !v } })}
      />
      <SwitchField
        label="Show Row Totals"
        checked={o.rendererOptions.table.rowTotals}
        onChange={(v) => set({ rendererOptions: { table: { rowTotals: v } } })}
      />
      <SwitchField
        label="Show Column Totals"
        checked={o.rendererOptions.table.colTotals}
        onChange={(v) => set({ rendererOptions: { table: { colTotals: v } } })}
      />
    </>
  );
}
