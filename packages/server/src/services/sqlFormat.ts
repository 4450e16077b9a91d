import { format } from "sql-formatter";

/** Mustache tags are kept as opaque parameters so templates format too. */
const TEMPLATE_TAG = String.raw`\{\{[\s\S]*?\}\}`;
const TAB = 10;

/**
 * Pretty-prints SQL the way Redash's Format button does (api-queries.md §3.9): keywords upper
 * case, one clause per line, select-list continuations aligned under the first column, AND/OR
 * indented two spaces. sql-formatter lays out a tabular form; the lines are then re-aligned.
 * Text it cannot parse comes back unchanged.
 */
export function formatSql(text: string): string {
  let tabular: string;
  try {
    tabular = format(text, {
      language: "sql",
      keywordCase: "upper",
      indentStyle: "tabularLeft",
      denseOperators: true,
      paramTypes: { custom: [{ regex: TEMPLATE_TAG }] },
    });
  } catch {
    return text;
  }
  const out: string[] = [];
  // Column where the current clause's items start, per nesting depth (in tabular steps).
  const itemColumn = new Map<number, number>();
  for (const line of tabular.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const depth = Math.floor(indent / TAB);
    const body = line.slice(depth * TAB);
    const base = " ".repeat(depth === 0 ? 0 : (itemColumn.get(depth - 1) ?? depth * TAB));
    const clause = /^([A-Z]+(?: [A-Z]+)*?)( {2,})(.*)$/.exec(body);
    if (body.trim() === "") {
      out.push(line.trim() === "" ? "" : line);
    } else if (body.startsWith(" ")) {
      // Continuation of the previous clause at this depth.
      out.push(base + " ".repeat(itemColumn.get(depth) ?? 0) + body.trimStart());
    } else if (clause && (clause[1] === "AND" || clause[1] === "OR")) {
      out.push(`${base}  ${clause[1]} ${clause[3]}`);
    } else if (clause) {
      itemColumn.set(depth, clause[1]!.length + 1);
      out.push(`${base}${clause[1]} ${clause[3]}`);
    } else {
      out.push(base + body);
    }
  }
  return out.join("\n");
}
