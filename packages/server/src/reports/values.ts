// The pinned results read back: whether the report is empty, a digest of its numbers (send only
// when they changed), each counter's and table's values for the e-mail's table and chat
// messages, and CSV/XLSX files made with the download code.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { UserIdentity } from "../auth/identity";
import { resultRefusal } from "../policies/results";
import {
  delimitedStream,
  downloadFilename,
  loadResultMeta,
  readResultRows,
  xlsxStream,
  type ResultMeta,
} from "../results";
import type { DB } from "../store/schema";
import { findQueriesByIds } from "../store/queries";
import { visualizationsByIds } from "../store/visualizations";
import type { PinnedResult } from "./store";
import type { ReportTarget } from "./target";

export const TABLE_ROWS_SHOWN = 10;

export interface WidgetResult {
  widgetId: number;
  name: string;
  queryId: number;
  queryName: string;
  type: string;
  options: Record<string, unknown>;
  meta: ResultMeta | null;
  error: string | null;
  /** The first rows (up to TABLE_ROWS_SHOWN), as [column, value] lists. */
  head: unknown[][];
}

export interface ReportValues {
  widgets: WidgetResult[];
  /** Every widget that has a result has no rows (and at least one has a result). */
  empty: boolean;
  /** sha256 of every pinned result's columns and rows, widget by widget. */
  digest: string;
}

/** The pinned results as the owner may read them now. */
export async function readReportValues(
  db: Kysely<DB>,
  owner: UserIdentity,
  target: ReportTarget,
  pinned: Record<string, PinnedResult>,
): Promise<ReportValues> {
  const visualizations = await visualizationsByIds(
    db,
    target.widgets.flatMap((w) => (w.visualization_id === null ? [] : [w.visualization_id])),
  );
  const queries = new Map(
    (
      await findQueriesByIds(
        db,
        owner.orgId,
        [...visualizations.values()].map((v) => v.query_id),
      )
    ).map((q) => [q.id, q]),
  );
  const hash = createHash("sha256");
  const widgets: WidgetResult[] = [];
  for (const widget of target.widgets) {
    const entry = pinned[String(widget.id)];
    const visualization =
      widget.visualization_id === null ? undefined : visualizations.get(widget.visualization_id);
    const query = visualization && queries.get(visualization.query_id);
    if (!entry || !visualization || !query) continue;
    const out: WidgetResult = {
      widgetId: widget.id,
      name: visualization.name === "Table" ? query.name : `${query.name}: ${visualization.name}`,
      queryId: query.id,
      queryName: query.name,
      type: visualization.type,
      options: visualization.options,
      meta: null,
      error: null,
      head: [],
    };
    hash.update(`widget ${widget.id}\n`);
    if ("error" in entry) {
      out.error = entry.error;
      hash.update(`error ${entry.error}\n`);
    } else {
      const meta = await loadResultMeta(db, owner.orgId, entry.result_id);
      const refusal = meta ? await resultRefusal(db, owner, meta) : "The result is gone.";
      if (!meta || refusal) {
        out.error = refusal ?? "The result is gone.";
        hash.update(`error ${out.error}\n`);
      } else {
        out.meta = meta;
        hash.update(JSON.stringify(meta.columns.map((c) => c.name)));
        for await (const rows of readResultRows(db, meta)) {
          for (const row of rows) {
            if (out.head.length < TABLE_ROWS_SHOWN) out.head.push(row);
            hash.update(JSON.stringify(row));
            hash.update("\n");
          }
        }
      }
    }
    widgets.push(out);
  }
  const withResults = widgets.filter((w) => w.meta !== null);
  return {
    widgets,
    empty: withResults.length > 0 && withResults.every((w) => w.meta!.rowCount === 0),
    digest: hash.digest("hex"),
  };
}

function rowIndex(rowNumber: unknown, count: number): number {
  const n = Math.trunc(Number(rowNumber ?? 1)) || 0;
  if (count === 0) return -1;
  const index = n > 0 ? n - 1 : n < 0 ? count + n : 0;
  return ((index % count) + count) % count;
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 4 });
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A counter's label and value text, or null for other visualizations. */
export function counterValue(w: WidgetResult): { label: string; value: string } | null {
  if (w.type !== "COUNTER" || !w.meta) return null;
  const o = w.options;
  const label = typeof o.counterLabel === "string" && o.counterLabel ? o.counterLabel : w.name;
  if (o.countRow === true) return { label, value: cellText(w.meta.rowCount) };
  const names = w.meta.columns.map((c) => c.name);
  const column = typeof o.counterColName === "string" ? names.indexOf(o.counterColName) : -1;
  const index = rowIndex(o.rowNumber, w.head.length);
  const row = index >= 0 ? w.head[index] : undefined;
  const raw = row ? row[column >= 0 ? column : 0] : null;
  const prefix = typeof o.stringPrefix === "string" ? o.stringPrefix : "";
  const suffix = typeof o.stringSuffix === "string" ? o.stringSuffix : "";
  return { label, value: `${prefix}${cellText(raw)}${suffix}` };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
export { escapeHtml };

/** The values of counters and tables as small HTML tables (mail clients that block images). */
export function valuesHtml(values: ReportValues): string {
  const parts: string[] = [];
  const cell = "padding:4px 8px;border:1px solid #e0e0e0;text-align:left";
  for (const w of values.widgets) {
    if (w.error) {
      parts.push(`<p><b>${escapeHtml(w.name)}</b>: ${escapeHtml(w.error)}</p>`);
      continue;
    }
    const counter = counterValue(w);
    if (counter) {
      parts.push(
        `<p>${escapeHtml(counter.label)}: <b style="font-size:18px">${escapeHtml(counter.value)}</b></p>`,
      );
    } else if (w.type === "TABLE" && w.meta) {
      const head = w.meta.columns.map((c) => `<th style="${cell}">${escapeHtml(c.name)}</th>`);
      const rows = w.head.map(
        (row) =>
          `<tr>${row.map((v) => `<td style="${cell}">${escapeHtml(cellText(v))}</td>`).join("")}</tr>`,
      );
      const more =
        w.meta.rowCount > w.head.length
          ? `<p style="color:#666">${w.head.length} of ${w.meta.rowCount} rows.</p>`
          : "";
      parts.push(
        `<p><b>${escapeHtml(w.name)}</b></p><table style="border-collapse:collapse;font-size:13px"><tr>${head.join("")}</tr>${rows.join("")}</table>${more}`,
      );
    }
  }
  return parts.join("\n");
}

/** The same values as plain text lines (chat messages, the text part of the e-mail). */
export function valuesText(values: ReportValues): string {
  const lines: string[] = [];
  for (const w of values.widgets) {
    if (w.error) {
      lines.push(`${w.name}: ${w.error}`);
      continue;
    }
    const counter = counterValue(w);
    if (counter) lines.push(`${counter.label}: ${counter.value}`);
    else if (w.type === "TABLE" && w.meta) {
      lines.push(`${w.name} (${w.meta.rowCount} rows)`);
      lines.push(w.meta.columns.map((c) => c.name).join(" | "));
      for (const row of w.head) lines.push(row.map(cellText).join(" | "));
    }
  }
  return lines.join("\n");
}

export interface FileAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

async function collect(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

/** Each widget's result as a CSV or XLSX file, named as downloads are. */
export async function resultFiles(
  db: Kysely<DB>,
  values: ReportValues,
  format: "csv" | "xlsx",
): Promise<FileAttachment[]> {
  const files: FileAttachment[] = [];
  const seen = new Set<number>();
  for (const w of values.widgets) {
    if (!w.meta || seen.has(w.meta.id)) continue;
    seen.add(w.meta.id);
    const filename = downloadFilename({
      query: { id: w.queryId, name: w.queryName },
      resultId: w.meta.id,
      retrievedAt: w.meta.retrievedAt,
      extension: format,
    });
    files.push(
      format === "csv"
        ? {
            filename,
            content: await collect(delimitedStream(db, w.meta, { delimiter: "," })),
            contentType: "text/csv; charset=UTF-8",
          }
        : {
            filename,
            content: await collect(xlsxStream(db, w.meta)),
            contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          },
    );
  }
  return files;
}
