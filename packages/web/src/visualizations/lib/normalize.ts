// Result data as visualizations receive it (catalogue 1.4): ISO date strings become UTC Dates,
// nested objects and arrays become JSON strings, untyped columns get an inferred type.
import { inferColumnType } from "@sightline/core";
import { parseDate, isIsoDateString } from "./dateFormat";
import type { QueryResultColumn, QueryResultData, Row } from "../types";

const KNOWN_TYPES = new Set(["integer", "float", "boolean", "string", "datetime", "date"]);

export function normalizeData(data: QueryResultData | null | undefined): QueryResultData {
  const rawColumns: QueryResultColumn[] = Array.isArray(data?.columns)
    ? data.columns.filter((c) => c && typeof c.name === "string")
    : [];
  const rawRows: Row[] = Array.isArray(data?.rows)
    ? data.rows.filter((r): r is Row => r !== null && typeof r === "object")
    : [];
  const columns = rawColumns.map((c) => {
    let type = c.type && KNOWN_TYPES.has(c.type) ? c.type : null;
    if (type === null || type === "string") {
      const inferred = inferColumnType(rawRows.slice(0, 1000).map((r) => r[c.name]));
      if (inferred && (type === null || inferred === "datetime" || inferred === "date"))
        type = inferred;
    }
    return { ...c, type };
  });
  const dateColumns = columns
    .filter((c) => c.type === "datetime" || c.type === "date")
    .map((c) => c.name);
  const needsWork = rawRows.some(
    (r, i) =>
      i < 50 &&
      Object.values(r).some((v) => v !== null && typeof v === "object" && !(v instanceof Date)),
  );
  if (dateColumns.length === 0 && !needsWork)
    return { columns, rows: rawRows, truncated: data?.truncated };
  const rows = rawRows.map((row) => {
    const out: Row = { ...row };
    for (const name of dateColumns) {
      const v = out[name];
      if (isIsoDateString(v)) out[name] = parseDate(v)?.toDate() ?? v;
    }
    for (const [k, v] of Object.entries(out)) {
      if (v !== null && typeof v === "object" && !(v instanceof Date)) out[k] = JSON.stringify(v);
    }
    return out;
  });
  return { columns, rows, truncated: data?.truncated };
}
