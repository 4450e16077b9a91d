import { Tooltip } from "antd";
import { useMemo } from "react";
import { Notices } from "../components/Notice";
import { formatNumber } from "../lib/numberFormat";
import { renderTemplate } from "../lib/template";
import { mixColors, textColorFor } from "../palette";
import type { RendererProps } from "../types";
import { buildCohort, colorStep, getCohortOptions } from "./cohort";

export function CohortRenderer({ options: stored, data }: RendererProps) {
  const o = useMemo(() => getCohortOptions(stored), [stored]);
  const cohort = useMemo(() => buildCohort(data, o), [data, o]);
  if (cohort.rows.length === 0) return <Notices notices={cohort.notices} />;
  const steps = Math.min(20, Math.max(3, o.colors.steps || 7));
  const th = {
    padding: "6px 8px",
    background: "#fafafa",
    borderBottom: "1px solid #f0f0f0",
    whiteSpace: "nowrap" as const,
  };
  return (
    <div style={{ overflow: "auto" }} data-testid="cohort-visualization">
      <Notices notices={cohort.notices} />
      <table
        style={{ borderCollapse: "collapse", fontSize: 13, fontVariantNumeric: "tabular-nums" }}
      >
        <thead>
          <tr>
            <th style={{ ...th, textAlign: "left" }}>{o.timeColumnTitle}</th>
            <th style={th}>{o.peopleColumnTitle}</th>
            {Array.from({ length: cohort.stageCount }, (_, i) => (
              <th key={i} style={th}>
                {renderTemplate(o.stageColumnTitle, (k) => (k === "@" ? String(i + 1) : undefined))}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cohort.rows.map((row) => (
            <tr key={row.label}>
              <td style={{ padding: "6px 8px", whiteSpace: "nowrap" }}>{row.label}</td>
              <td style={{ padding: "6px 8px", textAlign: "right" }}>
                {formatNumber(row.total, o.numberFormat)}
              </td>
              {row.values.map((v, i) => {
                if (v === undefined) return <td key={i} />;
                if (v === null)
                  return (
                    <td key={i} style={{ textAlign: "center", color: "#8c8c8c" }}>
                      {o.noValuePlaceholder}
                    </td>
                  );
                const pct = row.total ? (v / row.total) * 100 : 0;
                const bg = mixColors(
                  o.colors.min,
                  o.colors.max,
                  colorStep(pct, steps) / (steps - 1),
                );
                const text = o.percentValues
                  ? formatNumber(pct, o.percentFormat)
                  : formatNumber(v, o.numberFormat);
                const cell = (
                  <td
                    key={i}
                    style={{
                      padding: "6px 8px",
                      textAlign: "center",
                      background: bg,
                      color: textColorFor(bg),
                      minWidth: 56,
                    }}
                  >
                    {text}
                  </td>
                );
                return o.showTooltips && o.percentValues ? (
                  <Tooltip key={i} title={formatNumber(v, o.numberFormat)}>
                    {cell}
                  </Tooltip>
                ) : (
                  cell
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
