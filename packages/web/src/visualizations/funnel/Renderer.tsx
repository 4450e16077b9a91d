import { Tooltip } from "antd";
import { useMemo } from "react";
import { formatNumber } from "../lib/numberFormat";
import type { RendererProps } from "../types";
import { buildFunnel, formatFunnelPercent, getFunnelOptions } from "./funnel";

export function FunnelRenderer({
  options: stored,
  data,
  formats,
  onDatumClick,
  clickHint,
  selection,
}: RendererProps) {
  const o = useMemo(() => getFunnelOptions(stored, data), [stored, data]);
  const steps = useMemo(
    () => buildFunnel(data, o, formats.dateTimeFormat),
    [data, o, formats.dateTimeFormat],
  );
  if (steps.length === 0) return null;
  const maxPrev = Math.max(...steps.map((s) => s.pctPrevious), 1);
  const pct = (v: number) => formatFunnelPercent(v, o, (x) => formatNumber(x, o.percentFormat));
  const stepColumn = o.stepCol.colName;
  // The widget's own cross-filter selection: other steps dimmed.
  const dimmed = (value: unknown) =>
    !!stepColumn && !!selection?.columns.includes(stepColumn) && !selection.has(stepColumn, value);
  const th = { padding: "6px 8px", borderBottom: "1px solid #f0f0f0", textAlign: "left" as const };
  return (
    <table
      style={{
        width: "100%",
        borderCollapse: "collapse",
        fontSize: 13,
        fontVariantNumeric: "tabular-nums",
      }}
      data-testid="funnel-visualization"
    >
      <thead>
        <tr>
          <th style={th}>{o.stepCol.displayAs}</th>
          <th style={{ ...th, textAlign: "center" }}>{o.valueCol.displayAs}</th>
          <th style={th}>% Max</th>
          <th style={th}>% Previous</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s, i) => (
          <tr
            key={i}
            onClick={
              onDatumClick && stepColumn
                ? (e) =>
                    onDatumClick({
                      column: stepColumn,
                      value: s.stepValue,
                      row: { [stepColumn]: s.stepValue },
                      additive: e.ctrlKey || e.metaKey,
                    })
                : undefined
            }
            title={onDatumClick && stepColumn ? clickHint : undefined}
            style={{
              cursor: onDatumClick ? "pointer" : undefined,
              opacity: dimmed(s.stepValue) ? 0.35 : undefined,
            }}
          >
            <td
              style={{
                padding: "4px 8px",
                maxWidth: 200,
                overflow: "hidden",
                textOverflow: "ellipsis",
                whiteSpace: "nowrap",
              }}
            >
              <Tooltip title={s.step}>{s.step}</Tooltip>
            </td>
            <td style={{ padding: "4px 8px", width: "45%" }}>
              <div
                style={{
                  position: "relative",
                  height: 26,
                  display: "flex",
                  justifyContent: "center",
                }}
              >
                <div style={{ width: `${s.pctMax}%`, background: "#56B4E9", borderRadius: 2 }} />
                <span
                  style={{
                    position: "absolute",
                    inset: 0,
                    display: "flex",
                    alignItems: "center",
                    justifyContent: "center",
                  }}
                >
                  {formatNumber(s.value, o.numberFormat)}
                </span>
              </div>
            </td>
            <td style={{ padding: "4px 8px" }}>{pct(s.pctMax)}</td>
            <td style={{ padding: "4px 8px", position: "relative" }}>
              <div
                style={{
                  position: "absolute",
                  left: 0,
                  top: 4,
                  bottom: 4,
                  width: `${(s.pctPrevious / maxPrev) * 100}%`,
                  background: "#f0f0f0",
                  zIndex: 0,
                }}
              />
              <span style={{ position: "relative" }}>{pct(s.pctPrevious)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
