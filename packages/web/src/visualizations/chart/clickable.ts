// A chart whose values can be clicked shows it (issue 25): its tooltip ends with what a click
// does ("Click to open Country detail"), and its category labels take clicks as the bars do.
import { hintLine } from "../components/tooltipHint";
import type { Obj } from "./builtChart";

type Formatter = (params: unknown) => string;

/** The category axis of a cartesian option (x, or y on a horizontal chart), if it has one. */
function categoryAxisKey(option: Obj): "xAxis" | "yAxis" | null {
  for (const key of ["xAxis", "yAxis"] as const) {
    const axis = option[key];
    if (axis && !Array.isArray(axis) && (axis as Obj).type === "category") return key;
  }
  return null;
}

/**
 * The option of a chart whose values take clicks: the hint under each tooltip, and the category
 * labels reporting clicks (ECharts' triggerEvent) with a pointer over them.
 */
export function clickableOption(
  option: Obj,
  hint: string | undefined,
  { categoryClicks }: { categoryClicks: boolean },
): Obj {
  const out: Obj = { ...option };
  const tooltip = option.tooltip as Obj | undefined;
  const formatter = tooltip?.formatter as Formatter | undefined;
  if (hint && tooltip && typeof formatter === "function") {
    out.tooltip = {
      ...tooltip,
      formatter: (params: unknown) => {
        const html = formatter(params);
        return html ? `${html}${hintLine(hint)}` : html;
      },
    };
  }
  const axisKey = categoryClicks ? categoryAxisKey(option) : null;
  if (axisKey) out[axisKey] = { ...(option[axisKey] as Obj), triggerEvent: true };
  return out;
}
