// The end of the General tab: click events for drawn charts, or the code of a custom chart.
import { optionFields } from "../../editorFields";
import type { ChartTabProps } from "./tabProps";

/** A click on a value opens a link made from the URL template. */
export function ClickFields({ options, set }: ChartTabProps) {
  const f = optionFields(options, set);
  const linkOnly = { disabled: !options.enableLink };
  return (
    <>
      {f.check("Enable click events", "enableLink")}
      {f.check("Open in new tab", "linkOpenNewTab", linkOnly)}
      {f.text("URL template", "linkFormat", {
        ...linkOnly,
        placeholder: "https://example.com/?x={{ @@x }}",
        hint: "Use {{ @@x }}, {{ @@y }}, {{ @@x1 }}, {{ @@y1 }} ... and {{ column }}.",
      })}
    </>
  );
}

export function CustomCodeFields({ options, set }: ChartTabProps) {
  const f = optionFields(options, set);
  return (
    <>
      {f.text("Custom code", "customCode", {
        multiline: true,
        hint: "Runs in a sandboxed frame with x, ys and element.",
      })}
      {f.check("Show errors in the console", "enableConsoleLogs")}
      {f.check("Auto update graph", "autoRedraw")}
    </>
  );
}
