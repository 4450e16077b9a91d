// PIVOT table renderers (Table and the three heatmaps). The layout follows pivottable.js: the
// column attributes' names sit in one column between the row keys and the column keys; the
// last row key (and the Totals label) spans into it, and the last level of column keys spans
// down into the row attributes' header row, so no cell is left empty under a header.
import { mixColors } from "../palette";
import type { PivotOptions, PivotResult } from "./pivot";

function heat(min: number, max: number, v: number | string | null): string | undefined {
  if (typeof v !== "number" || max === min) return undefined;
  return mixColors("#ffffff", "#f08c8c", (v - min) / (max - min));
}

const th = {
  padding: "4px 8px",
  background: "#f5f5f5",
  border: "1px solid #e8e8e8",
  textAlign: "left" as const,
  fontWeight: 600,
};
const td = {
  padding: "4px 8px",
  border: "1px solid #e8e8e8",
  textAlign: "right" as const,
  fontVariantNumeric: "tabular-nums",
};

export function PivotTable({ result: p, options }: { result: PivotResult; options: PivotOptions }) {
  const { rows, cols } = options;
  const colKeys = cols.length ? p.colKeys : [];
  const rowKeys = rows.length ? p.rowKeys : [[]];
  const showRowTotals = options.rendererOptions?.table?.rowTotals !== false;
  const showColTotals = options.rendererOptions?.table?.colTotals !== false;
  // The column of the column attributes' names, shared with the last row key.
  const axisColumn = cols.length ? 1 : 0;
  const mode = options.rendererName;
  const nums = (list: (number | string | null)[]) =>
    list.filter((v): v is number => typeof v === "number");
  const all = nums(rowKeys.flatMap((rk) => colKeys.map((ck) => p.value(rk, ck))));
  const cellBg = (rk: string[], ck: string[], v: number | string | null) => {
    if (mode === "Table Heatmap") return heat(Math.min(...all), Math.max(...all), v);
    if (mode === "Table Row Heatmap") {
      const r = nums(colKeys.map((c) => p.value(rk, c)));
      return heat(Math.min(...r), Math.max(...r), v);
    }
    if (mode === "Table Col Heatmap") {
      const c = nums(rowKeys.map((r) => p.value(r, ck)));
      return heat(Math.min(...c), Math.max(...c), v);
    }
    return undefined;
  };
  return (
    <table style={{ borderCollapse: "collapse", fontSize: 13 }} data-testid="pivot-table">
      <thead>
        {cols.map((attr, level) => (
          <tr key={attr}>
            {level === 0 && rows.length ? (
              <th style={th} colSpan={rows.length} rowSpan={cols.length} />
            ) : null}
            <th style={th}>{attr}</th>
            {colKeys.map((ck, i) => (
              <th key={i} style={th} rowSpan={level === cols.length - 1 && rows.length ? 2 : 1}>
                {ck[level]}
              </th>
            ))}
            {level === 0 && showRowTotals ? (
              <th style={th} rowSpan={cols.length + (rows.length ? 1 : 0)}>
                Totals
              </th>
            ) : null}
          </tr>
        ))}
        {rows.length ? (
          <tr>
            {rows.map((a, i) => (
              <th key={a} style={th} colSpan={i === rows.length - 1 ? 1 + axisColumn : 1}>
                {a}
              </th>
            ))}
            {!cols.length && showRowTotals ? <th style={th}>Totals</th> : null}
          </tr>
        ) : null}
      </thead>
      <tbody>
        {rowKeys.map((rk, ri) => (
          <tr key={ri}>
            {rows.length ? (
              rk.map((k, i) => (
                <th key={i} style={th} colSpan={i === rk.length - 1 ? 1 + axisColumn : 1}>
                  {k}
                </th>
              ))
            ) : (
              <th style={th}>{cols.length ? "" : "Totals"}</th>
            )}
            {colKeys.map((ck, ci) => {
              const v = p.value(rk, ck);
              return (
                <td key={ci} style={{ ...td, background: cellBg(rk, ck, v) }}>
                  {p.format(v)}
                </td>
              );
            })}
            {showRowTotals || !cols.length ? (
              <td style={{ ...td, fontWeight: 600 }}>
                {p.format(rows.length ? p.rowTotal(rk) : p.grandTotal())}
              </td>
            ) : null}
          </tr>
        ))}
        {showColTotals && cols.length ? (
          <tr>
            <th style={th} colSpan={rows.length + axisColumn}>
              Totals
            </th>
            {colKeys.map((ck, i) => (
              <td key={i} style={{ ...td, fontWeight: 600 }}>
                {p.format(p.colTotal(ck))}
              </td>
            ))}
            {showRowTotals ? (
              <td style={{ ...td, fontWeight: 700 }}>{p.format(p.grandTotal())}</td>
            ) : null}
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
