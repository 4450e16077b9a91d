import {
  DuckDBTimestampTZValue,
  DuckDBTypeId,
  StatementType,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
} from "@duckdb/node-api";
import type { JsonText } from "./types";

/**
 * DuckDB writes the result's row objects itself (for big results: runners/duckdbStreamStarts.ts decides).
 *
 * Reading a big result into JS values costs a native call per string plus a JS value per cell,
 * and encoding them to JSON again costs as much: a million rows took twice the driver's raw read.
 * DuckDB builds JSON in parallel C++ code (1M rows in ~0.2 s), so a SELECT is wrapped as
 *
 *   SELECT json_object('id', c0, 'name', c1, …)::VARCHAR FROM (<the query>) AS t(c0, c1, …)
 *
 * and each row comes back as one string of Redash's row-object JSON. Reading a string still costs
 * a native call, so the rows are also packed by ROWS_PER_PACK: every fourth row carries itself
 * and the three before it (`lag()` over the unordered window, which DuckDB streams in the query's
 * order), and only those are read; the few rows after the last pack are read on their own.
 * 1M rows: ~0.9 s instead of ~1.8 s for the driver reading the cells.
 *
 * Each column's expression reproduces the runner's cell conversion (runners/duckdbCells.ts), so the
 * stored values are the same either way: integers beyond ±2^53 as text, NaN and infinities as
 * null, FLOAT as the double JS sees, decimals as numbers up to 15 significant digits, timestamps
 * in Redash's ISO form (TIMESTAMPTZ on a server running in UTC). Types without an exact SQL
 * equivalent (blobs, lists, intervals, …) keep the whole query on the cell path. Numbers may be
 * spelled differently than JSON.stringify would (`100.0`, `1e21`): the same values for every
 * JSON reader.
 */

/** Exactly representable integers in a double: beyond them the runner writes text. */
const SAFE = "9007199254740991";

/** The JSON value of column `ref` as the cell path would store it, or null if not expressible. */
function jsonExpression(ref: string, typeId: DuckDBTypeId): string | null {
  switch (typeId) {
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.DATE:
    case DuckDBTypeId.SQLNULL:
      return ref;
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
      return `CASE WHEN ${ref} BETWEEN -${SAFE} AND ${SAFE} THEN to_json(${ref}) ELSE to_json(${ref}::VARCHAR) END`;
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
      // No negative bound: DuckDB would cast the unsigned value to a signed type to compare.
      return `CASE WHEN ${ref} <= ${SAFE} THEN to_json(${ref}) ELSE to_json(${ref}::VARCHAR) END`;
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return `CASE WHEN isfinite(${ref}) THEN ${ref}::DOUBLE END`;
    case DuckDBTypeId.DECIMAL:
      // values.ts decimalCell: a number up to 15 significant digits (counted on the text, without
      // leading and trailing zeros) within the range JSON writes plainly, else the text. The text
      // is parsed to a double, which rounds exactly like JS.
      return `CASE WHEN length(rtrim(ltrim(replace(abs(${ref})::VARCHAR, '.', ''), '0'), '0')) <= 15
          AND (${ref} = 0 OR (abs(${ref}) >= 0.000001 AND abs(${ref})::DOUBLE < 1e21))
        THEN to_json(${ref}::VARCHAR::DOUBLE) ELSE to_json(${ref}::VARCHAR) END`;
    case DuckDBTypeId.TIMESTAMP_TZ: {
      // The cells show these in the server's time zone, with its offset; the usual UTC server's
      // is written here (the UTC wall-clock time as for TIMESTAMP, then "Z"; BC and infinite
      // values as the driver writes them), other offsets keep the cell path.
      if (DuckDBTimestampTZValue.timezoneOffsetInMinutes !== 0) return null;
      const utc = `make_timestamp(epoch_us(${ref}))`;
      return `CASE WHEN isinf(${ref}) THEN ${ref}::VARCHAR
        WHEN year(${utc}) >= 1 THEN ${isoText(utc)} || 'Z'
        ELSE ${utc}::VARCHAR || '+00' END`;
    }
    case DuckDBTypeId.TIMESTAMP:
      // BC and infinite values as DuckDB writes them ("0044-03-15 (BC) 12:00:00", "infinity").
      return `CASE WHEN isfinite(${ref}) AND year(${ref}) >= 1 THEN ${isoText(ref)}
        ELSE ${ref}::VARCHAR END`;
    default:
      return null;
  }
}

/**
 * Redash's text of a finite timestamp of year 1 or later (values.ts isoTimestamp): ISO with a
 * "T", and the milliseconds, cut, when the fraction of a second is not zero.
 */
function isoText(ref: string): string {
  return `CASE WHEN epoch_us(${ref}) % 1000000 = 0 THEN strftime(${ref}, '%Y-%m-%dT%H:%M:%S')
    ELSE strftime(${ref}, '%Y-%m-%dT%H:%M:%S.%g') END`;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The query rewritten to return the row-object JSON of each row keyed by `names` (the
 * result's column names after de-duplication), or null when it is not a SELECT or a column's
 * type needs the cell path. The caller falls back to the original statement if DuckDB refuses
 * the rewritten text (e.g. a trailing comment after a semicolon).
 */
export function jsonRowsQuery(
  query: string,
  prepared: DuckDBPreparedStatement,
  names: string[],
): string | null {
  if (prepared.statementType !== StatementType.SELECT) return null;
  const count = prepared.columnCount;
  if (count === 0 || count !== names.length) return null;
  const refs: string[] = [];
  const pairs: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const ref = `c${i}`;
    const value = jsonExpression(ref, prepared.columnTypeId(i));
    if (value === null) return null;
    refs.push(ref);
    pairs.push(`${sqlString(names[i])}, ${value}`);
  }
  const inner = query.replace(/;\s*$/, "");
  const rows = `SELECT json_object(${pairs.join(", ")})::VARCHAR AS r FROM (\n${inner}\n) AS sightline_rows(${refs.join(", ")})`;
  const previous = Array.from(
    { length: ROWS_PER_PACK - 1 },
    (_, i) => `lag(r, ${ROWS_PER_PACK - 1 - i}) OVER ()`,
  );
  return `SELECT CASE WHEN row_number() OVER () % ${ROWS_PER_PACK} = 0 THEN concat_ws(',', ${previous.join(", ")}, r) END AS pack, r FROM (${rows})`;
}

/** Rows per pack: fewer strings to read, at the cost of DuckDB copying each row once more. */
const ROWS_PER_PACK = 4;

/**
 * Turns the chunks of a jsonRowsQuery result into row JSON texts, in order. Rows not yet covered
 * by a pack are read at the end of each chunk and kept until a pack includes them, or, after the
 * last chunk, handed out on their own by `finish`.
 */
export class JsonChunkReader {
  private unpacked: string[] = [];

  read(chunk: DuckDBDataChunk): JsonText[] {
    const packs = chunk.getColumnVector(0);
    const count = chunk.rowCount; // a native call: read once
    const texts: JsonText[] = [];
    let afterLastPack = 0;
    for (let r = 0; r < count; r += 1) {
      const pack = packs.getItem(r) as string | null;
      if (pack === null) continue;
      texts.push({ text: pack, rows: ROWS_PER_PACK });
      afterLastPack = r + 1;
      this.unpacked = [];
    }
    if (afterLastPack < count) {
      const rows = chunk.getColumnVector(1);
      for (let r = afterLastPack; r < count; r += 1) {
        this.unpacked.push(rows.getItem(r) as string);
      }
    }
    return texts;
  }

  finish(): JsonText[] {
    const texts = this.unpacked.map((text) => ({ text, rows: 1 }));
    this.unpacked = [];
    return texts;
  }
}
