import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimeValue,
  DuckDBTypeId,
  type DuckDBDataChunk,
  type DuckDBTimestampValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import type { Cell, ColumnType } from "./types";
import {
  bigintCell,
  bytesCell,
  decimalCell,
  isoDateFromDays,
  isoTime,
  isoTimestamp,
  microsTimestampFormatter,
  numberCell,
} from "./values";

/** DuckDB values → Sightline cells: column types, and per-column converters chunk by chunk. */

export function duckdbColumnType(typeId: DuckDBTypeId): ColumnType {
  switch (typeId) {
    case DuckDBTypeId.BOOLEAN:
      return "boolean";
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return "integer";
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return "float";
    case DuckDBTypeId.DATE:
      return "date";
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return "datetime";
    default:
      return "string";
  }
}

function duckdbCell(value: DuckDBValue, type: ColumnType): Cell {
  if (value === null) return null;
  if (typeof value === "number") return numberCell(value);
  if (typeof value === "bigint") return bigintCell(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (value instanceof DuckDBDecimalValue) return decimalCell(value.toString());
  if (value instanceof DuckDBBlobValue) return bytesCell(value.bytes);
  if (value instanceof DuckDBDateValue) return dateText(value);
  const text = value.toString();
  if (value instanceof DuckDBTimeValue) return isoTime(text);
  return type === "datetime" ? isoTimestamp(text) : text;
}

/** A date as DuckDB writes it; the driver's own text shows the infinities as far-off days. */
function dateText(value: DuckDBDateValue): string {
  if (value.isFinite) return value.toString();
  return value.days > 0 ? "infinity" : "-infinity";
}

/** Converts one non-null value of a column. */
export type Converter = (value: DuckDBValue) => Cell;

const same: Converter = (value) => value as Cell;

/**
 * The converter of a column, chosen once per result from its type: the common types skip the
 * per-value type tests, and timestamps and dates are written from their numbers directly.
 */
export function columnConverter(typeId: DuckDBTypeId, type: ColumnType): Converter {
  const general: Converter = (value) => duckdbCell(value, type);
  switch (typeId) {
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
      return same;
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return (value) => numberCell(value as number);
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return (value) => bigintCell(value as bigint);
    case DuckDBTypeId.DATE:
      return (value) => isoDateFromDays((value as DuckDBDateValue).days) ?? general(value);
    case DuckDBTypeId.TIMESTAMP: {
      const format = microsTimestampFormatter();
      return (value) => format((value as DuckDBTimestampValue).micros) ?? general(value);
    }
    case DuckDBTypeId.TIMESTAMP_TZ: {
      // As the driver writes them: in the server's time zone, with its offset.
      const format = microsTimestampFormatter(DuckDBTimestampTZValue.timezoneOffsetInMinutes);
      return (value) => format((value as DuckDBTimestampTZValue).micros) ?? general(value);
    }
    default:
      return general;
  }
}

/** A chunk's rows, filled column by column. */
export function chunkRows(chunk: DuckDBDataChunk, converters: Converter[]): Cell[][] {
  const count = chunk.rowCount;
  const rows: Cell[][] = [];
  for (let r = 0; r < count; r += 1) rows.push([]);
  for (let c = 0; c < converters.length; c += 1) {
    const vector = chunk.getColumnVector(c);
    const convert = converters[c];
    for (let r = 0; r < count; r += 1) {
      const value = vector.getItem(r);
      rows[r].push(value === null ? null : convert(value));
    }
  }
  return rows;
}
