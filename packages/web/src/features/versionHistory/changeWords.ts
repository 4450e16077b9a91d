// What changed between two versions, in words: each change has a short form for the one-line
// summary of the version list ("text changed", "2 parameters added") and a sentence for the
// details ('Parameter "region" added'). Changes of one kind and verb are counted together in the
// summary.

export interface ChangeItem {
  /** Groups changes counted together in the summary: "parameter", "widget", "text", … */
  kind: string;
  /** The verb of the summary: "added", "removed", "changed", "moved", … */
  verb: string;
  /** The sentence the details list shows. */
  detail: string;
  /**
   * The summary's words for one change of this kind; with `plural` the words for several ("2
   * parameters added" from noun "parameter"). Without a noun the short form stands alone.
   */
  noun?: string;
}

/** "1 widget", "2 widgets", "2 text boxes". */
export function plural(n: number, noun: string): string {
  if (n === 1) return `${n} ${noun}`;
  return `${n} ${noun}${/(s|x|ch|sh)$/.test(noun) ? "es" : "s"}`;
}

/** Equal as JSON with the keys of objects in any order (stored options carry no functions). */
export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The one-line summary: "text changed, 2 parameters added" (in the order the changes come). */
export function summaryLine(changes: readonly ChangeItem[]): string {
  const groups = new Map<string, { item: ChangeItem; count: number }>();
  for (const item of changes) {
    const key = `${item.kind}\u0000${item.verb}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { item, count: 1 });
  }
  const parts = [...groups.values()].map(({ item, count }) =>
    item.noun ? `${plural(count, item.noun)} ${item.verb}` : `${item.kind} ${item.verb}`,
  );
  return parts.join(", ");
}

/** The summary with its first letter upper-cased, or `none` when nothing changed. */
export function summarySentence(changes: readonly ChangeItem[], none = "No changes"): string {
  const line = summaryLine(changes);
  return line ? line[0]!.toUpperCase() + line.slice(1) : none;
}

/** `"a", "b" and "c"` */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

/** Markdown read as plain words: no heading marks, emphasis, code ticks; links as their text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_`~]+/g, "")
    .replace(/<[^>]+>/g, " ");
}

/** A text cut to `max` characters with an ellipsis, on one line. */
export function shortText(text: string, max = 40): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The API's field names in words, for a version whose objects are not loaded (yet). */
const FIELD_WORDS: Record<string, string> = {
  query: "text",
  name: "name",
  description: "description",
  data_source_id: "data source",
  options: "options",
  schedule: "schedule",
  tags: "tags",
  is_draft: "publishing",
  is_archived: "archiving",
  visualizations: "visualizations",
  widgets: "widgets",
  layout: "layout",
  dashboard_filters_enabled: "dashboard filters",
};

/** "Text, options changed" from ["query", "options"]; "Saved" without names. */
export function fieldsSummary(fields: readonly string[]): string {
  const words = [...new Set(fields.map((f) => FIELD_WORDS[f] ?? f.replace(/_/g, " ")))];
  if (words.length === 0) return "Saved";
  const line = `${words.join(", ")} changed`;
  return line[0]!.toUpperCase() + line.slice(1);
}
