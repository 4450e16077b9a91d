// What changed from one version of a query to the next, in words (issue 29): the text, name,
// description, data source, parameters, other options, schedule, tags, publishing and each
// visualization. The version list's summary and the details list are both made from these.
import type { ParameterDefinition, Query, Schedule, Visualization } from "@sightline/core";
import {
  quotedList,
  sameValue,
  shortText,
  type ChangeItem,
} from "../../versionHistory/changeWords";

/** The fields compared; versions may lack some (older stores, partial answers). */
export type QueryVersionFields = Pick<Query, "query" | "name" | "options"> &
  Partial<
    Pick<
      Query,
      "description" | "data_source_id" | "schedule" | "tags" | "is_draft" | "visualizations"
    >
  >;

export interface QueryChangeContext {
  /** A data source's name by id (its id in words when unknown). */
  dataSourceName?: (id: number | null | undefined) => string;
  /** A schedule in words ("Every 1 hour"). */
  scheduleWords?: (schedule: Schedule | null) => string;
}

/** Parameter settings in words, for "Parameter "x" changed: title, default value". */
const PARAMETER_KEYS: Record<string, string> = {
  title: "title",
  type: "type",
  value: "default value",
  enumOptions: "dropdown values",
  queryId: "source query",
  multiValuesOptions: "multiple values",
  regex: "pattern",
  global: "global",
  useCurrentDateTime: "current date default",
};

const defaultSourceName = (id: number | null | undefined) =>
  id === null || id === undefined ? "none" : `#${id}`;

/** The changes from `before` to `after`; a first version (no `before`) is "created". */
export function queryChanges(
  before: QueryVersionFields | null,
  after: QueryVersionFields,
  context: QueryChangeContext = {},
): ChangeItem[] {
  if (!before) return [{ kind: "query", verb: "created", detail: "Query created" }];
  const out: ChangeItem[] = [];
  if (before.query !== after.query) {
    out.push({ kind: "text", verb: "changed", detail: "Query text changed" });
  }
  if (before.name !== after.name) {
    out.push({
      kind: "name",
      verb: "changed",
      detail: `Renamed from "${before.name}" to "${after.name}"`,
    });
  }
  if ((before.description ?? "") !== (after.description ?? "")) {
    out.push({ kind: "description", verb: "changed", detail: describeDescription(after) });
  }
  if (
    before.data_source_id !== undefined &&
    after.data_source_id !== undefined &&
    before.data_source_id !== after.data_source_id
  ) {
    const name = context.dataSourceName ?? defaultSourceName;
    out.push({
      kind: "data source",
      verb: "changed",
      detail: `Data source changed from ${name(before.data_source_id)} to ${name(after.data_source_id)}`,
    });
  }
  out.push(...parameterChanges(before.options.parameters ?? [], after.options.parameters ?? []));
  if (!sameValue(otherOptions(before.options), otherOptions(after.options))) {
    out.push({ kind: "options", verb: "changed", detail: "Query options changed" });
  }
  if (!sameValue(before.schedule ?? null, after.schedule ?? null)) {
    out.push(scheduleChange(after.schedule ?? null, context));
  }
  const tags = before.tags && after.tags ? tagChanges(before.tags, after.tags) : null;
  if (tags) out.push(tags);
  if (
    before.is_draft !== undefined &&
    after.is_draft !== undefined &&
    before.is_draft !== after.is_draft
  ) {
    out.push(
      after.is_draft
        ? { kind: "query", verb: "unpublished", detail: "Unpublished" }
        : { kind: "query", verb: "published", detail: "Published" },
    );
  }
  if (before.visualizations && after.visualizations) {
    out.push(...visualizationChanges(before.visualizations, after.visualizations));
  }
  return out;
}

function describeDescription(after: QueryVersionFields): string {
  const text = after.description ?? "";
  return text ? `Description changed to "${shortText(text)}"` : "Description removed";
}

function otherOptions(options: Query["options"]): Record<string, unknown> {
  const { parameters: _parameters, ...rest } = options;
  return rest;
}

function parameterLabel(p: ParameterDefinition): string {
  return p.title && p.title !== p.name ? `"${p.name}" (${p.title})` : `"${p.name}"`;
}

export function parameterChanges(
  before: readonly ParameterDefinition[],
  after: readonly ParameterDefinition[],
): ChangeItem[] {
  const out: ChangeItem[] = [];
  const old = new Map(before.map((p) => [p.name, p]));
  const now = new Map(after.map((p) => [p.name, p]));
  for (const p of after) {
    if (!old.has(p.name)) {
      out.push({
        kind: "parameter",
        noun: "parameter",
        verb: "added",
        detail: `Parameter ${parameterLabel(p)} added`,
      });
    }
  }
  for (const p of before) {
    if (!now.has(p.name)) {
      out.push({
        kind: "parameter",
        noun: "parameter",
        verb: "removed",
        detail: `Parameter ${parameterLabel(p)} removed`,
      });
    }
  }
  for (const p of after) {
    const was = old.get(p.name);
    if (!was || sameValue(was, p)) continue;
    const keys = [...new Set([...Object.keys(was), ...Object.keys(p)])].filter(
      (k) => k !== "name" && !sameValue(was[k], p[k]),
    );
    const words = [...new Set(keys.map((k) => PARAMETER_KEYS[k] ?? k))];
    out.push({
      kind: "parameter",
      noun: "parameter",
      verb: "changed",
      detail: `Parameter ${parameterLabel(p)} changed${words.length ? `: ${words.join(", ")}` : ""}`,
    });
  }
  if (
    out.length === 0 &&
    !sameValue(
      before.map((p) => p.name),
      after.map((p) => p.name),
    )
  ) {
    out.push({
      kind: "parameters",
      verb: "reordered",
      detail: "Parameters reordered",
    });
  }
  return out;
}

function scheduleChange(after: Schedule | null, context: QueryChangeContext): ChangeItem {
  if (!after) return { kind: "schedule", verb: "removed", detail: "Schedule removed" };
  const words = context.scheduleWords?.(after);
  return {
    kind: "schedule",
    verb: "changed",
    detail: words ? `Schedule set to ${words}` : "Schedule changed",
  };
}

function tagChanges(before: readonly string[], after: readonly string[]): ChangeItem | null {
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  if (added.length === 0 && removed.length === 0) return null;
  const parts = [
    added.length ? `added ${quotedList(added)}` : "",
    removed.length ? `removed ${quotedList(removed)}` : "",
  ].filter(Boolean);
  return { kind: "tags", verb: "changed", detail: `Tags: ${parts.join("; ")}` };
}

export function visualizationChanges(
  before: readonly Visualization[],
  after: readonly Visualization[],
): ChangeItem[] {
  const out: ChangeItem[] = [];
  const old = new Map(before.map((v) => [v.id, v]));
  const now = new Map(after.map((v) => [v.id, v]));
  const item = (verb: string, detail: string): ChangeItem => ({
    kind: "visualization",
    noun: "visualization",
    verb,
    detail,
  });
  for (const v of after) {
    const was = old.get(v.id);
    if (!was) out.push(item("added", `Visualization "${v.name}" added`));
    else if (was.name !== v.name) {
      out.push(item("changed", `Visualization "${was.name}" renamed to "${v.name}"`));
    } else if (was.type !== v.type || !sameValue(was.options, v.options)) {
      out.push(item("changed", `Visualization "${v.name}" changed`));
    }
  }
  for (const v of before) {
    if (!now.has(v.id)) out.push(item("removed", `Visualization "${v.name}" removed`));
  }
  return out;
}
