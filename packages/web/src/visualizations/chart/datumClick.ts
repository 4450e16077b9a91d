// Chart clicks as value clicks (a bar, point or slice: its x column's value, with the values known
// for it: x, series and its y value, so a drill-down can pass any of them) and the widget's own
// selection drawn by dimming the other values (issue 19).
import type { EChartsClick } from "../components/EChart";
import type { DatumClick, DatumSelection, Row } from "../types";
import type { BuiltChart } from "./builtChart";
import { LARGE_SERIES } from "./cartesianSeries";
import type { ColumnMapping } from "./options";
import type { ChartPoint, ChartSeries } from "./prepare";

type Obj = Record<string, unknown>;

/** Kinds whose points sum several rows: only the x (and series) values stand for them. */
const SUMMED = new Set(["column", "line", "area", "pie"]);

/** Opacity of the values outside the selection. */
export const DIMMED_OPACITY = 0.25;

/** The x column's value a point stands for: from its row when it has one, else the drawn x. */
function xValue(point: ChartPoint, xColumn: string): unknown {
  return xColumn in point.row ? point.row[xColumn] : point.x;
}

/**
 * The y column a point's value is of: each y column is drawn as its own series (keyed by its name)
 * unless a series column groups the rows, and then the points are of the last mapped y column.
 */
function yColumnOf(
  series: ChartSeries,
  point: ChartPoint,
  mapping: { y?: readonly string[]; series: string | null },
): string | undefined {
  const y = mapping.y ?? [];
  const grouped = mapping.series !== null && mapping.series in point.row;
  if (!grouped && y.includes(series.key)) return series.key;
  return y.filter((c) => c in point.row).at(-1) ?? y.at(-1);
}

export function chartDatumClick(
  built: BuiltChart,
  params: EChartsClick,
  mapping: Pick<ColumnMapping, "x" | "series"> & { y?: readonly string[] },
): DatumClick | null {
  const x = mapping.x;
  if (!x) return null;
  const native = params.event?.event;
  const additive = !!(native?.ctrlKey || native?.metaKey);
  if (params.componentType === "xAxis" || params.componentType === "yAxis") {
    // A category's label stands for the category, as its bars do, over every series.
    const point = built.categoryPoint?.(String(params.value));
    if (!point) return null;
    const value = xValue(point, x);
    return { column: x, value, row: { [x]: value }, additive };
  }
  const hit = built.pointAt(params.seriesIndex ?? -1, params.dataIndex ?? -1);
  if (!hit) return null;
  const value = xValue(hit.point, x);
  let row: Row = hit.point.row;
  if (SUMMED.has(hit.series.type) || !(x in row)) {
    // A point summing rows stands for its x and series values, and its drawn (summed) y value.
    row = { [x]: value };
    if (mapping.series && mapping.series in hit.point.row)
      row[mapping.series] = hit.point.row[mapping.series];
    const y = yColumnOf(hit.series, hit.point, mapping);
    if (y && y !== x && y !== mapping.series) row[y] = hit.point.y;
  }
  return { column: x, value, row, additive };
}

/**
 * The option with the values of the x column that are not selected dimmed; the same option when
 * the selection is not on the x column. Very large series are left as drawn.
 */
export function dimUnselected(
  option: Obj,
  built: BuiltChart,
  selection: DatumSelection | undefined,
  xColumn: string | null,
): Obj {
  if (!selection || !xColumn || !selection.columns.includes(xColumn)) return option;
  const series = (option.series as Obj[]).map((s, si) => {
    const data = s.data;
    if (!Array.isArray(data) || data.length > LARGE_SERIES) return s;
    return {
      ...s,
      data: data.map((d: unknown, di) => {
        const hit = built.pointAt(si, di);
        if (!hit || selection.has(xColumn, xValue(hit.point, xColumn))) return d;
        const item: Obj =
          typeof d === "object" && d !== null && !Array.isArray(d) ? (d as Obj) : { value: d };
        const style = (item.itemStyle as Obj | undefined) ?? {};
        return { ...item, itemStyle: { ...style, opacity: DIMMED_OPACITY } };
      }),
    };
  });
  return { ...option, series };
}
