// Column options of TABLE and DETAILS (catalogue 3.2): rebuilt from the result on every call,
// stored settings laid over the defaults, stored order kept when the user reordered columns.
import { parseColumnName } from "@sightline/core";
import { asObject, isPlainObject } from "../lib/merge";
import type { Options, QueryResultColumn, VisualizationFormats } from "../types";

export type DisplayAs = "string" | "number" | "datetime" | "boolean" | "link" | "image" | "json";
export const DISPLAY_AS: { value: DisplayAs; label: string }[] = [
  { value: "string", label: "Text" },
  { value: "number", label: "Number" },
  { value: "datetime", label: "Date/Time" },
  { value: "boolean", label: "Boolean" },
  { value: "link", label: "Link" },
  { value: "image", label: "Image" },
  { value: "json", label: "JSON" },
];

export interface ColumnOptions {
  name: string;
  type: string | null;
  displayAs: DisplayAs | string;
  visible: boolean;
  order: number;
  title: string;
  alignContent: "left" | "center" | "right";
  description: string;
  allowSearch: boolean;
  allowHTML: boolean;
  highlightLinks: boolean;
  numberFormat?: string;
  dateTimeFormat?: string;
  booleanValues: string[];
  nullValue: string;
  imageUrlTemplate: string;
  imageTitleTemplate: string;
  imageWidth: string;
  imageHeight: string;
  linkUrlTemplate: string;
  linkTextTemplate: string;
  linkTitleTemplate: string;
  linkOpenInNewTab: boolean;
  [key: string]: unknown;
}

/** Table and details titles drop the filter suffix and a leading "::". */
export function columnTitle(name: string): string {
  return parseColumnName(name).displayName.replace(/^::/, "");
}

function defaultDisplayAs(type: string | null): DisplayAs {
  if (type === "integer" || type === "float") return "number";
  if (type === "boolean") return "boolean";
  if (type === "date" || type === "datetime") return "datetime";
  return "string";
}

export function defaultColumnOptions(
  column: QueryResultColumn,
  index: number,
  formats: VisualizationFormats,
  kind: "table" | "details" = "table",
): ColumnOptions {
  const t = column.type;
  const rightAligned = ["integer", "float", "boolean", "date", "datetime"].includes(t ?? "");
  return {
    name: column.name,
    type: t,
    displayAs: defaultDisplayAs(t),
    visible: true,
    order: 100000 + index,
    title: columnTitle(column.name),
    alignContent: kind === "details" ? "left" : rightAligned ? "right" : "left",
    description: "",
    allowSearch: false,
    allowHTML: false,
    highlightLinks: false,
    numberFormat:
      t === "integer" ? formats.integerFormat : t === "float" ? formats.floatFormat : undefined,
    dateTimeFormat:
      t === "date" ? formats.dateFormat : t === "datetime" ? formats.dateTimeFormat : undefined,
    booleanValues: [...formats.booleanValues],
    nullValue: formats.nullValue,
    imageUrlTemplate: "{{ @ }}",
    imageTitleTemplate: "{{ @ }}",
    imageWidth: "",
    imageHeight: "",
    linkUrlTemplate: "{{ @ }}",
    linkTextTemplate: "{{ @ }}",
    linkTitleTemplate: "{{ @ }}",
    linkOpenInNewTab: true,
  };
}

/** Stored column entries laid over defaults, in display order (hidden ones included). */
export function buildColumns(
  stored: unknown,
  columns: readonly QueryResultColumn[],
  formats: VisualizationFormats,
  kind: "table" | "details" = "table",
): ColumnOptions[] {
  const storedList = Array.isArray(stored) ? stored.filter(isPlainObject) : [];
  const byName = new Map(storedList.map((c) => [String(c.name), c]));
  const built = columns.map((col, i) => {
    const defaults = defaultColumnOptions(col, i, formats, kind);
    const own = byName.get(col.name);
    const merged = { ...defaults } as ColumnOptions;
    if (own) for (const [k, v] of Object.entries(own)) if (v !== undefined) merged[k] = v;
    merged.name = col.name;
    merged.type = col.type;
    if (kind === "details") merged.allowSearch = false;
    return merged;
  });
  // Keep stored positions only when the user reordered the columns.
  const storedNames = storedList
    .map((c) => String(c.name))
    .filter((n) => columns.some((c) => c.name === n));
  const resultOrder = columns.map((c) => c.name).filter((n) => storedNames.includes(n));
  const reordered = storedNames.some((n, i) => resultOrder[i] !== n);
  if (!reordered) return built.map((c, i) => ({ ...c, order: 100000 + i }));
  const position = new Map(storedNames.map((n, i) => [n, i]));
  return [...built]
    .sort(
      (a, b) =>
        (position.get(a.name) ?? storedNames.length + columns.findIndex((c) => c.name === a.name)) -
        (position.get(b.name) ?? storedNames.length + columns.findIndex((c) => c.name === b.name)),
    )
    .map((c, i) => ({ ...c, order: 100000 + i }));
}

export function visibleColumns(columns: readonly ColumnOptions[]): ColumnOptions[] {
  return columns.filter((c) => c.visible !== false);
}

export interface TableOptions extends Options {
  itemsPerPage: number;
  columns: ColumnOptions[];
}

export const ITEMS_PER_PAGE = [5, 10, 15, 20, 25, 50, 100, 150, 200, 250, 500];

export function getTableOptions(
  stored: Options | null | undefined,
  columns: readonly QueryResultColumn[],
  formats: VisualizationFormats,
): TableOptions {
  const src = asObject(stored);
  const { paginationSize: _runtimeOnly, ...rest } = src;
  void _runtimeOnly;
  const perPage = Number(src.itemsPerPage);
  return {
    ...rest,
    itemsPerPage: Number.isFinite(perPage) && perPage > 0 ? perPage : 25,
    columns: buildColumns(src.columns, columns, formats, "table"),
  };
}

export function getDetailsOptions(
  stored: Options | null | undefined,
  columns: readonly QueryResultColumn[],
  formats: VisualizationFormats,
): Options & { columns: ColumnOptions[] } {
  const src = asObject(stored);
  return { ...src, columns: buildColumns(src.columns, columns, formats, "details") };
}
