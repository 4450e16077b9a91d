import { parse as parseYaml } from "yaml";

/**
 * The query text of the CSV and Excel runners: Redash's small YAML (`url:` plus the reader
 * options of pandas' read_csv / read_excel that DuckDB can honour), and Sightline's own keys:
 * `format:` (when the URL's extension does not say) and `query:` (SQL over the table `file`).
 */

export type FileFormat = "csv" | "tsv" | "json" | "jsonl" | "parquet" | "xlsx";
export const FILE_FORMATS: FileFormat[] = ["csv", "tsv", "json", "jsonl", "parquet", "xlsx"];

export const XLS_REFUSED =
  "The old binary Excel format (.xls) is not read: save the sheet as .xlsx or CSV, or use the link's 'export as xlsx/csv' form.";

export interface FileQuery {
  url: string;
  format: FileFormat | null;
  /** SQL over the table `file`; default `SELECT * FROM file`. */
  sql: string | null;
  /** Column separator (`sep` / `delimiter`). */
  sep?: string;
  /** False when the first row holds data (`header: None` in Redash). */
  header: boolean;
  names?: string[];
  skiprows?: number;
  nrows?: number;
  usecols?: string[];
  quotechar?: string;
  escapechar?: string;
  encoding?: string;
  decimal?: string;
  naValues?: string[];
  /** Excel: the sheet's name or 0-based position. */
  sheet?: string | number;
  userAgent?: string;
}

const KNOWN = new Set([
  "url",
  "format",
  "query",
  "sep",
  "delimiter",
  "header",
  "names",
  "skiprows",
  "nrows",
  "usecols",
  "quotechar",
  "escapechar",
  "encoding",
  "decimal",
  "na_values",
  "sheet_name",
  "user-agent",
  // pandas' type hints: DuckDB detects dates and types itself, so these are accepted and unused.
  "parse_dates",
  "dtype",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" && typeof value !== "number")
    throw new Error(`'${key}' needs to be a text.`);
  return String(value);
}

function count(value: unknown, key: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new Error(`'${key}' needs to be a whole number, 0 or more.`);
  return value;
}

function list(value: unknown, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.split(",").map((s) => s.trim());
  if (!Array.isArray(value)) throw new Error(`'${key}' needs to be a list.`);
  return value.map(String);
}

function parseHeader(value: unknown): boolean {
  // pandas: header=0 (the default) is the first row; header=None means there is none.
  if (value === undefined || value === 0 || value === true || value === "infer") return true;
  if (value === null || value === false || value === "None") return false;
  throw new Error("'header' must be 0 (the first row holds the column names) or None.");
}

export function parseFileQuery(queryText: string): FileQuery {
  if (queryText.trim() === "") throw new Error("Query is empty.");
  let spec: unknown;
  try {
    spec = parseYaml(queryText);
  } catch (error) {
    throw new Error(`The query is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  if (!isObject(spec))
    throw new Error("Query should be a YAML object with the file's 'url' and reader options.");
  if (typeof spec.url !== "string" || spec.url.trim() === "")
    throw new Error("Query must include 'url' option.");
  const unknown = Object.keys(spec).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `'${k}'`).join(", ")}. Known options: ${[...KNOWN].join(", ")}.`,
    );
  }
  const format = text(spec.format, "format")?.toLowerCase() ?? null;
  if (format === "xls") throw new Error(XLS_REFUSED);
  const normalized = format === "ndjson" || format === "jsonlines" ? "jsonl" : format;
  if (normalized !== null && !FILE_FORMATS.includes(normalized as FileFormat)) {
    throw new Error(`Unknown format '${format}'. Formats: ${FILE_FORMATS.join(", ")}.`);
  }
  const sheet = spec.sheet_name;
  if (sheet !== undefined && typeof sheet !== "string" && typeof sheet !== "number") {
    throw new Error("'sheet_name' must be a sheet's name or its position (0 is the first).");
  }
  const sql = text(spec.query, "query");
  return {
    url: spec.url.trim(),
    format: normalized as FileFormat | null,
    sql: sql?.trim() ? sql : null,
    sep: text(spec.sep ?? spec.delimiter, "sep"),
    header: parseHeader(spec.header),
    names: list(spec.names, "names"),
    skiprows: count(spec.skiprows, "skiprows"),
    nrows: count(spec.nrows, "nrows"),
    usecols: list(spec.usecols, "usecols"),
    quotechar: text(spec.quotechar, "quotechar"),
    escapechar: text(spec.escapechar, "escapechar"),
    encoding: text(spec.encoding, "encoding"),
    decimal: text(spec.decimal, "decimal"),
    naValues: list(spec.na_values, "na_values"),
    sheet: sheet === undefined ? undefined : (sheet as string | number),
    userAgent: text(spec["user-agent"], "user-agent"),
  };
}

const EXTENSIONS: Record<string, FileFormat> = {
  csv: "csv",
  tsv: "tsv",
  tab: "tsv",
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
  parquet: "parquet",
  xlsx: "xlsx",
};

/** The format: as given, else from the URL's extension, else from the content type. */
export function detectFormat(
  query: FileQuery,
  contentType: string,
  fallback: FileFormat,
): FileFormat {
  if (query.format) return query.format;
  try {
    const ext = new URL(query.url).pathname.split(".").pop()?.toLowerCase() ?? "";
    if (EXTENSIONS[ext]) return EXTENSIONS[ext];
    if (ext === "xls") throw new Error(XLS_REFUSED);
  } catch {
    // not a URL: the outbound client says so
  }
  const type = contentType.toLowerCase();
  if (type.includes("application/vnd.ms-excel")) throw new Error(XLS_REFUSED);
  if (type.includes("spreadsheetml")) return "xlsx";
  if (type.includes("tab-separated")) return "tsv";
  if (type.includes("ndjson") || type.includes("jsonl")) return "jsonl";
  if (type.includes("json")) return "json";
  if (type.includes("parquet")) return "parquet";
  if (type.includes("csv")) return "csv";
  return fallback;
}
