// How a chart writes a column's values in its labels and tooltips: by the chart's number format
// when the user chose one, else by the column's type, as a table writes them.
import { DEFAULT_FORMATS, type QueryResultColumn, type VisualizationFormats } from "../types";
import type { ChartOptions } from "./options";

/**
 * Redash's default numberFormat. numeral writes all five decimals as soon as there is one
 * (12.5 → "12.50000", a DECIMAL sum reads 1,234.50000), so it stands for "not chosen".
 */
export const DEFAULT_NUMBER_FORMAT = "0,0[.]00000";

/** Up to five decimals, trailing zeros dropped: values of a column of unknown type. */
const TRIMMED_NUMBER_FORMAT = "0,0.[00000]";

/** The organisation's number formats (catalogue 1.3) that stand in for the chart's default. */
export type NumberFormats = Pick<VisualizationFormats, "integerFormat" | "floatFormat">;

/**
 * The numeral format of a column's values: the chart's numberFormat unless it is the default;
 * then integers take the organisation's integer format and floats (DECIMAL included) its float
 * format, as in a table; any other column up to five decimals without trailing zeros.
 */
export function valueFormat(
  options: Pick<ChartOptions, "numberFormat">,
  column: Pick<QueryResultColumn, "type"> | undefined,
  formats: NumberFormats = DEFAULT_FORMATS,
): string {
  const own = options.numberFormat;
  if (own !== DEFAULT_NUMBER_FORMAT) return own ?? "";
  if (column?.type === "integer") return formats.integerFormat;
  if (column?.type === "float") return formats.floatFormat;
  return TRIMMED_NUMBER_FORMAT;
}

/** The format of a percentage of values (normalised series): a float whatever the column. */
export function percentValueFormat(
  options: Pick<ChartOptions, "numberFormat">,
  formats: NumberFormats = DEFAULT_FORMATS,
): string {
  return valueFormat(options, { type: "float" }, formats);
}
