// Axis tick formats as stored for Plotly: d3-format for numbers, d3-time-format for dates.
import { format as d3Format } from "d3-format";
import { utcFormat } from "d3-time-format";

export function numberTickFormatter(spec: string | undefined): ((v: number) => string) | undefined {
  if (!spec) return undefined;
  try {
    const f = d3Format(spec);
    return (v: number) => f(v);
  } catch {
    return undefined;
  }
}

export function timeTickFormatter(spec: string | undefined): ((v: number) => string) | undefined {
  if (!spec || !spec.includes("%")) return undefined;
  const f = utcFormat(spec);
  return (v: number) => f(new Date(v));
}
