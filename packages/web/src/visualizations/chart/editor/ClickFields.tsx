// The end of the General tab: click events for drawn charts, or the code of a custom chart.
import { CheckField, TextField } from "../../components/controls";
import type { ChartTabProps } from "./tabProps";

/** A click on a value opens a link made from the URL template. */
export function ClickFields({ options, set }: ChartTabProps) {
  return (
    <>
      <CheckField
        label="Enable click events"
        checked={options.enableLink}
        onChange={(v) => set({ enableLink: v })}
      />
      <CheckField
        label="Open in new tab"
        checked={options.linkOpenNewTab}
        disabled={!options.enableLink}
        onChange={(v) => set({ linkOpenNewTab: v })}
      />
      <TextField
        label="URL template"
        value={options.linkFormat}
        disabled={!options.enableLink}
        placeholder="https://example.com/?x={{ @@x }}"
        hint="Use {{ @@x }}, {{ @@y }}, {{ @@x1 }}, {{ @@y1 }} ... and {{ column }}."
        onChange={(v) => set({ linkFormat: v })}
      />
    </>
  );
}

export function CustomCodeFields({ options, set }: ChartTabProps) {
  return (
    <>
      <TextField
        label="Custom code"
        multiline
        value={options.customCode}
        onChange={(v) => set({ customCode: v })}
        hint="Runs in a sandboxed frame with x, ys and element."
      />
      <CheckField
        label="Show errors in the console"
        checked={options.enableConsoleLogs}
        onChange={(v) => set({ enableConsoleLogs: v })}
      />
      <CheckField
        label="Auto update graph"
        checked={options.autoRedraw}
        onChange={(v) => set({ autoRedraw: v })}
      />
    </>
  );
}
