// BOXPLOT (deprecated): every column is one box of its rows' values. Still renders.
import { useMemo } from "react";
import { EChart } from "../components/EChart";
import type { RendererProps } from "../types";
import { boxplotOption } from "./boxplotOption";

export function BoxplotRenderer({ options, data }: RendererProps) {
  const option = useMemo(() => boxplotOption(options, data), [data, options]);
  if (data.rows.length === 0) return null;
  return (
    <div style={{ height: "100%", minHeight: 300 }}>
      <EChart option={option} />
    </div>
  );
}
