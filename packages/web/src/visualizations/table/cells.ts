// Cell text and links of TABLE and DETAILS (catalogue 3.2), as pure functions.
import { formatDate, parseDate } from "../lib/dateFormat";
import { formatNumber, toNumber, type Separators } from "../lib/numberFormat";
import { renderTemplate, rowLookup } from "../lib/template";
import type { Row } from "../types";
import type { ColumnOptions } from "./columns";

export interface CellContext extends Separators {
  nullValue: string;
  tableCellMaxJSONSize: number;
}

/** The text a cell shows (also what search matches). */
export function cellText(value: unknown, column: ColumnOptions, ctx: CellContext): string {
  const kind = column.displayAs;
  if (
    (value === null || value === undefined) &&
    ["string", "number", "datetime", "boolean"].includes(String(kind))
  )
    return ctx.nullValue;
  if (value === null || value === undefined) return "";
  switch (kind) {
    case "number": {
      if (value === "") return "";
      return toNumber(value) === null
        ? String(value)
        : formatNumber(value, column.numberFormat ?? "", ctx);
    }
    case "datetime": {
      if (!column.dateTimeFormat)
        return value instanceof Date ? value.toISOString() : String(value);
      return parseDate(value) ? formatDate(value, column.dateTimeFormat) : String(value);
    }
    case "boolean": {
      const labels = Array.isArray(column.booleanValues)
        ? column.booleanValues.map(String)
        : ["false", "true"];
      const truthy =
        value === true || value === "true" || value === 1 || value === "1" || value === "t";
      if (labels.length === 1) return truthy ? labels[0] : "";
      return truthy ? (labels[1] ?? "true") : (labels[0] ?? "false");
    }
    default:
      return value instanceof Date
        ? value.toISOString()
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
  }
}

/** A parsed JSON value for JSON cells, or undefined when the text is not JSON or too long. */
export function parseJsonCell(value: unknown, maxSize: number): unknown {
  if (typeof value !== "string")
    return value !== null && typeof value === "object" ? value : undefined;
  if (value.length > maxSize) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export function linkParts(value: unknown, row: Row, column: ColumnOptions) {
  const lookup = rowLookup(row, value);
  const href = renderTemplate(column.linkUrlTemplate ?? "{{ @ }}", lookup);
  const text = renderTemplate(column.linkTextTemplate ?? "{{ @ }}", lookup);
  const title = renderTemplate(column.linkTitleTemplate || "", lookup);
  return { href: safeUrl(href), text: text || href, title };
}

export function imageParts(value: unknown, row: Row, column: ColumnOptions) {
  const lookup = rowLookup(row, value);
  const src = renderTemplate(column.imageUrlTemplate ?? "{{ @ }}", lookup);
  const title = renderTemplate(column.imageTitleTemplate || "", lookup);
  const size = (v: unknown) => {
    const n = Number(renderTemplate(String(v ?? ""), lookup));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  return {
    src: safeUrl(src),
    title,
    width: size(column.imageWidth),
    height: size(column.imageHeight),
  };
}

/**
 * Only http(s), ftp, relative and mailto links are followed; anything else (javascript:) is
 * dropped. The scheme is read as browsers read it (the URL standard): leading and trailing
 * control characters and spaces removed, tabs and newlines removed anywhere, so that
 * "java<TAB>script:" is seen as the script it is; other control characters are refused.
 */
export function safeUrl(url: string): string {
  const u = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  if (u === "" || /[\u0000-\u001f\u007f]/.test(u)) return "";
  if (/^[a-z][a-z0-9+.-]*:/i.test(u) && !/^(https?|mailto|ftp):/i.test(u)) return "";
  return u;
}

/** Bare http, https and ftp URLs in escaped text become links that open in a new tab. */
export function highlightLinks(html: string): string {
  return html.replace(
    /(^|[\s>])((?:https?|ftp):\/\/[^\s<]+)/gi,
    (_, lead: string, url: string) =>
      `${lead}<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`,
  );
}

// --- sorting and search -------------------------------------------------------------------

export interface SortKey {
  name: string;
  direction: "ascend" | "descend";
}

function compareRaw(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Sorts on raw values by several keys; nulls first (ascending). Stable. */
export function sortRows(rows: readonly Row[], keys: readonly SortKey[]): Row[] {
  if (keys.length === 0) return rows as Row[];
  return rows
    .map((row, i) => ({ row, i }))
    .sort((x, y) => {
      for (const k of keys) {
        const c = compareRaw(x.row[k.name], y.row[k.name]);
        if (c !== 0) return k.direction === "ascend" ? c : -c;
      }
      return x.i - y.i;
    })
    .map((e) => e.row);
}

/** Header click: ascending → descending → off; with shift, the key joins a multi-column sort. */
export function nextSort(keys: readonly SortKey[], name: string, multi: boolean): SortKey[] {
  const current = keys.find((k) => k.name === name);
  const next: SortKey | null = !current
    ? { name, direction: "ascend" }
    : current.direction === "ascend"
      ? { name, direction: "descend" }
      : null;
  if (!multi) return next ? [next] : [];
  const rest = keys.filter((k) => k.name !== name);
  if (!next) return rest;
  return current ? keys.map((k) => (k.name === name ? next : k)) : [...keys, next];
}

/** Case-insensitive substring match on any searchable column's formatted text. */
export function searchRows(
  rows: readonly Row[],
  term: string,
  columns: readonly ColumnOptions[],
  ctx: CellContext,
): Row[] {
  const t = term.trim().toLowerCase();
  if (!t || columns.length === 0) return rows as Row[];
  return rows.filter((row) =>
    columns.some((c) => cellText(row[c.name], c, ctx).toLowerCase().includes(t)),
  );
}

// --- paging -------------------------------------------------------------------------------

export interface Page<T> {
  /** The page shown, 1-based, moved back to the last page when there are fewer pages now. */
  current: number;
  pageCount: number;
  /** Rows a page (a whole number, at least 1). */
  pageSize: number;
  /** The rows of the page shown: only these are drawn. */
  pageRows: T[];
}

/** One page of the (searched and sorted) rows, `pageSize` rows a page. */
export function pageOf<T>(rows: readonly T[], page: number, pageSize: number): Page<T> {
  const size = Math.max(1, Math.floor(pageSize) || 1);
  const pageCount = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  return {
    current,
    pageCount,
    pageSize: size,
    pageRows: rows.slice((current - 1) * size, current * size),
  };
}
