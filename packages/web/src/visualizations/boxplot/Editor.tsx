import { TextField } from "../components/controls";
import type { EditorProps } from "../types";

export function BoxplotEditor({ options, onOptionsChange: set }: EditorProps) {
  return (
    <>
      <TextField
        label="X Axis Label"
        value={options.xAxisLabel}
        onChange={(v) => set({ xAxisLabel: v })}
      />
      <TextField
        label="Y Axis Label"
        value={options.yAxisLabel}
        onChange={(v) => set({ yAxisLabel: v })}
      />
    </>
  );
}
