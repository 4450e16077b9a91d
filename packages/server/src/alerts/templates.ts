import Mustache from "mustache";
import { escapeHtml } from "../auth/pages";
import type { Cell, ResultColumn } from "../runners/types";
import type { Alert } from "../store/alerts";

/**
 * Alert notification templates (api-platform.md §9.6): `custom_subject` and `custom_body` are
 * mustache over the variables below, rendered as Redash renders them (its `mustache_render`,
 * escaping off): `{{x}}` and `{{{x}}}` both give the value as it is, since chat, webhooks and
 * pagers carry text. In an HTML e-mail every substituted value is HTML-escaped instead, and the
 * template's own markup stays as written.
 */

/** The result an alert was evaluated on. */
export interface AlertResultData {
  columns: ResultColumn[];
  rows: Record<string, Cell>[];
}

export interface AlertTemplateQuery {
  id: number;
  name: string;
}

/** A value rendered as Python's repr, as Redash shows lists and rows inside `{{...}}`. */
function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "nan";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
    return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(", ")}}`;
}

/** A list that still iterates in sections but prints as Python's repr in `{{LIST}}`. */
function printableList<T>(items: T[]): T[] {
  Object.defineProperty(items, "toString", { value: () => pythonRepr(items), enumerable: false });
  return items;
}

/**
 * Rows a notification carries at most: in `QUERY_RESULT_ROWS`, `QUERY_RESULT_TABLE` and the
 * default e-mail's table (Redash sends every row; a big result would make a message no mail
 * server or chat accepts). The condition is still evaluated over every row.
 */
export const NOTIFICATION_ROWS = 100;

/** Every variable of §9.6, for an alert in its stored (already updated) state. */
export function templateVariables(
  alert: Pick<Alert, "id" | "name" | "state" | "options">,
  query: AlertTemplateQuery,
  data: AlertResultData | null,
  host: string,
): Record<string, unknown> {
  const column = alert.options.column;
  const first = data?.rows[0];
  const names = data?.columns.map((c) => c.name) ?? [];
  const rows = (data?.rows ?? []).slice(0, NOTIFICATION_ROWS);
  return {
    ALERT_NAME: alert.name,
    ALERT_URL: `${host}/alerts/${alert.id}`,
    ALERT_STATUS: alert.state.toUpperCase(),
    ALERT_SELECTOR: alert.options.selector,
    ALERT_CONDITION: alert.options.op,
    ALERT_THRESHOLD: alert.options.value,
    QUERY_NAME: query.name,
    QUERY_URL: `${host}/queries/${query.id}`,
    QUERY_RESULT_VALUE: first && column !== undefined && column in first ? first[column] : null,
    QUERY_RESULT_ROWS: printableList(rows),
    QUERY_RESULT_COLS: printableList((data?.columns ?? []).map((c) => ({ ...c }))),
    QUERY_RESULT_TABLE: printableList(
      rows.map((row) => printableList(names.map((name) => row[name] ?? null))),
    ),
  };
}

/** Where a rendered template goes: text (chat, webhooks, subjects) or an HTML e-mail body. */
export type TemplateOutput = "text" | "html";

/** Escapes every value, those of `{{{x}}}` and `{{&x}}` too: an e-mail is HTML throughout. */
class HtmlValueWriter extends Mustache.Writer {
  override unescapedValue(token: string[], context: Mustache.Context): string {
    return this.escapedValue(token, context, HTML) as string;
  }
}

const TEXT: Mustache.RenderOptions = { escape: (value: unknown) => String(value) };
const HTML: Mustache.RenderOptions = { escape: (value: unknown) => escapeHtml(String(value)) };
const htmlWriter = new HtmlValueWriter();

/** A template rendered over the variables for `output`; "" when there is none. */
export function renderAlertTemplate(
  template: unknown,
  variables: Record<string, unknown>,
  output: TemplateOutput = "text",
): string {
  if (typeof template !== "string" || template === "") return "";
  if (output === "text") return Mustache.render(template, variables, undefined, TEXT);
  return htmlWriter.render(template, variables, undefined, HTML);
}

/** Why a template cannot be rendered (unclosed section, bad tag), or null when it can. */
export function templateProblem(template: unknown): string | null {
  if (typeof template !== "string") return null;
  try {
    Mustache.parse(template);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The alert's custom body (`template` is its legacy name). */
function customBody(options: Alert["options"]): unknown {
  return options.custom_body ?? options.template;
}

/** The alert's rendered subject and body, as text (`template` is the legacy name of `custom_body`). */
export function renderAlertTexts(
  options: Alert["options"],
  variables: Record<string, unknown>,
): { subject: string; body: string } {
  return {
    subject: renderAlertTemplate(options.custom_subject, variables),
    body: renderAlertTemplate(customBody(options), variables),
  };
}

/** The custom body as an HTML e-mail's body, its values escaped; "" when the alert has none. */
export function renderEmailBody(
  options: Alert["options"],
  variables: Record<string, unknown>,
): string {
  return renderAlertTemplate(customBody(options), variables, "html");
}

const STATUS_COLORS: Record<string, string> = {
  TRIGGERED: "#c0392b",
  OK: "#27ae60",
  UNKNOWN: "#f39c12",
};

const DEFAULT_EMAIL = `<!DOCTYPE html>
<html>
<body style="margin: 0; padding: 16px; font-family: Helvetica, Arial, sans-serif; color: #333;">
<p><span style="display: inline-block; padding: 4px 10px; border-radius: 3px; color: #fff; font-weight: bold; background-color: {{color}};">STATUS: {{ALERT_STATUS}}</span></p>
<p>CONDITION: {{QUERY_RESULT_VALUE}} {{ALERT_CONDITION}} {{ALERT_THRESHOLD}}</p>
<p>Query: <a href="{{QUERY_URL}}">{{QUERY_NAME}}</a></p>
<table style="border-collapse: collapse; font-size: 13px;">
<thead><tr>{{#headers}}<th style="border: 1px solid #ddd; padding: 4px 8px; text-align: left; background-color: #f5f5f5;">{{text}}</th>{{/headers}}</tr></thead>
<tbody>{{#rows}}<tr>{{#cells}}<td style="border: 1px solid #ddd; padding: 4px 8px;">{{text}}</td>{{/cells}}</tr>{{/rows}}</tbody>
</table>
{{#moreRows}}<p style="font-size: 13px; color: #777;">… {{moreRows}}</p>{{/moreRows}}
</body>
</html>
`;

function cellText(value: Cell | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** The line under a cut table: "1 more row", "250 more rows"; "" when nothing was cut. */
function moreRowsText(total: number): string {
  const more = total - NOTIFICATION_ROWS;
  if (more <= 0) return "";
  return `${more} more ${more === 1 ? "row" : "rows"}`;
}

/**
 * The e-mail body when the alert has no custom body: a status badge, the condition, a link to
 * the query and the result as a table of its first NOTIFICATION_ROWS rows, then how many more.
 */
export function defaultEmailBody(
  variables: Record<string, unknown>,
  data: AlertResultData | null,
): string {
  const columns = data?.columns ?? [];
  return renderAlertTemplate(
    DEFAULT_EMAIL,
    {
      ...variables,
      color: STATUS_COLORS[String(variables.ALERT_STATUS)] ?? STATUS_COLORS.UNKNOWN,
      headers: columns.map((c) => ({ text: c.friendly_name || c.name })),
      rows: (data?.rows ?? []).slice(0, NOTIFICATION_ROWS).map((row) => ({
        cells: columns.map((c) => ({ text: cellText(row[c.name]) })),
      })),
      moreRows: moreRowsText(data?.rows.length ?? 0),
    },
    "html",
  );
}
