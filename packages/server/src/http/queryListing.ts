import { badRequest } from "./errors";

/**
 * Search, tag filter, ordering and paging of query lists (api-queries.md §1.5–§1.8), applied to
 * the rows a listing may show. Done here rather than in SQL so SQLite and PostgreSQL behave alike.
 */

export interface Searchable {
  id: number;
  name: string;
  description: string | null;
  query: string;
  tags: string[];
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);

interface Term {
  negated: boolean;
  words: string[];
}

/** `a b` = a AND b; `a or b`; `-a` = NOT a; parentheses are ignored (flat precedence). */
function parseSearch(q: string): Term[][] {
  const groups: Term[][] = [[]];
  for (const raw of q.trim().split(/\s+/)) {
    const token = raw.replace(/[()]/g, "");
    if (!token) continue;
    if (token.toLowerCase() === "or") {
      groups.push([]);
      continue;
    }
    const negated = token.startsWith("-") && token.length > 1;
    const termWords = words(negated ? token.slice(1) : token);
    if (termWords.length > 0) groups[groups.length - 1]!.push({ negated, words: termWords });
  }
  return groups.filter((g) => g.length > 0);
}

const FIELD_WEIGHTS = [
  ["name", 8],
  ["id", 4],
  ["description", 2],
  ["query", 1],
] as const;

/** Relevance of a row for the search (0 = no match): name weighs most, query text least. */
export function searchRank(row: Searchable, q: string): number {
  return rankRow(row, parseSearch(q));
}

/**
 * True when the row can match: some group's words all occur in its text (a word only matches a
 * word it begins, so it must occur as a substring). Cheap, and it spares most rows the word
 * splitting of their query text when the search is selective.
 */
function mayMatch(row: Searchable, groups: Term[][]): boolean {
  if (groups.length === 0) return true;
  let text: string | null = null;
  return groups.some((group) =>
    group.every(
      (term) =>
        term.negated ||
        term.words.every((w) => {
          text ??= `${row.name}\n${row.description ?? ""}\n${row.query}\n${row.id}`.toLowerCase();
          return text.includes(w);
        }),
    ),
  );
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Whether some word of `text` (lowercased, split as `words` does) begins with `w`, a word itself:
 * `w` occurs where no word character precedes it. Spares splitting long query texts into words.
 */
export function hasWordStartingWith(text: string, w: string): boolean {
  for (let at = text.indexOf(w); at !== -1; at = text.indexOf(w, at + 1)) {
    if (at === 0) return true;
    // The character before, whole even when it is outside the Basic Multilingual Plane.
    const pair =
      at >= 2 &&
      isLowSurrogate(text.charCodeAt(at - 1)) &&
      isHighSurrogate(text.charCodeAt(at - 2));
    const before = pair ? text.slice(at - 2, at) : text[at - 1]!;
    if (!WORD_CHAR.test(before)) return true;
  }
  return false;
}

function rankRow(row: Searchable, groups: Term[][]): number {
  if (groups.length === 0) return 1;
  if (!mayMatch(row, groups)) return 0;
  const fields: Record<string, string> = {
    name: row.name.toLowerCase(),
    id: String(row.id),
    description: (row.description ?? "").toLowerCase(),
    query: row.query.toLowerCase(),
  };
  const wordScore = (w: string) => {
    let score = 0;
    for (const [field, weight] of FIELD_WEIGHTS) {
      const text = fields[field]!;
      if (field === "id" ? text.startsWith(w) : hasWordStartingWith(text, w)) score += weight;
    }
    return score;
  };
  let best = 0;
  for (const group of groups) {
    let total = 0;
    let ok = true;
    for (const term of group) {
      const scores = term.words.map(wordScore);
      const matched = scores.every((s) => s > 0);
      if (matched === term.negated) {
        ok = false;
        break;
      }
      if (!term.negated) total += scores.reduce((a, b) => a + b, 0);
    }
    if (ok) best = Math.max(best, total || 1);
  }
  return best;
}

/** Multi-byte mode: `word`, `"phrase"` or `field:value` tokens, each a case-insensitive substring. */
export function matchesMultiByte(row: Searchable, q: string): boolean {
  const tokens = q.match(/(\w+:)?"[^"]*"|\S+/g) ?? [];
  return tokens.every((token) => {
    const field = /^(name|query|description|id):(.*)$/.exec(token);
    const value = (field ? field[2]! : token).replace(/^"|"$/g, "").toLowerCase();
    if (field?.[1] === "id") return String(row.id) === value;
    const haystacks = field
      ? [
          field[1] === "name"
            ? row.name
            : field[1] === "query"
              ? row.query
              : (row.description ?? ""),
        ]
      : [row.name, row.description ?? ""];
    return haystacks.some((h) => h.toLowerCase().includes(value));
  });
}

export function hasAllTags(row: { tags: string[] }, tags: string[]): boolean {
  return tags.every((t) => row.tags.includes(t));
}

export interface Orderable extends Searchable {
  created_at: string;
  schedule: Record<string, unknown> | null;
  runtime: number | null;
  retrieved_at: string | null;
  owner_name: string | null;
  starred_at: string | null;
}

export type Key = string | number | null;

const ORDER_KEYS: Record<string, (row: Orderable) => Key> = {
  name: (r) => r.name.toLowerCase(),
  created_at: (r) => r.created_at,
  schedule: (r) => {
    const interval = Number(r.schedule?.interval);
    return r.schedule && Number.isFinite(interval) ? Math.trunc(interval) : null;
  },
  runtime: (r) => r.runtime,
  executed_at: (r) => r.retrieved_at,
  created_by: (r) => r.owner_name,
  starred_at: (r) => r.starred_at,
};

/** Sorts by a Redash `order` value (`-` prefix = descending); nulls last both ways. */
export function sortRows<T extends Orderable>(rows: T[], order: string): T[] | null {
  return sortByOrder(rows, order, ORDER_KEYS);
}

/**
 * Sorts by an `order` value among the list's keys (`-` prefix = descending; ties: newest id
 * first; nulls last both ways). null when the key is not one of them.
 */
export function sortByOrder<T extends { id: number }>(
  rows: T[],
  order: string,
  keys: Record<string, (row: T) => Key>,
): T[] | null {
  const desc = order.startsWith("-");
  const keyOf = keys[desc ? order.slice(1) : order];
  if (!keyOf) return null;
  return [...rows].sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (ka === null || kb === null) return ka === kb ? b.id - a.id : ka === null ? 1 : -1;
    const cmp = ka < kb ? -1 : ka > kb ? 1 : 0;
    return (desc ? -cmp : cmp) || b.id - a.id;
  });
}

export interface ListArgs {
  q: string;
  tags: string[];
  order: string | null;
  page: number;
  pageSize: number;
  multiByte: boolean;
}

/** Reads the list arguments; bad integers fall back to their defaults, as Redash. */
export function readListArgs(query: Record<string, unknown>, multiByte = false): ListArgs {
  const int = (value: unknown, fallback: number) => {
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === "string" && /^-?\d+$/.test(text.trim()) ? Number(text) : fallback;
  };
  const str = (value: unknown) =>
    typeof value === "string" ? value : Array.isArray(value) ? String(value[0] ?? "") : "";
  const tags = query.tags;
  return {
    q: str(query.q).trim(),
    tags: (Array.isArray(tags) ? tags : tags === undefined ? [] : [tags]).map(String),
    order: query.order === undefined ? null : str(query.order),
    page: int(query.page, 1),
    pageSize: int(query.page_size, 25),
    multiByte,
  };
}

/** Applies q, tags and order (api-queries.md §1.6–§1.8). */
export function filterAndOrder<T extends Orderable>(rows: T[], args: ListArgs): T[] {
  let out = rows.filter((r) => hasAllTags(r, args.tags));
  if (!args.q) return sortRows(out, args.order ?? "-created_at") ?? sortRows(out, "-created_at")!;
  if (args.multiByte) {
    out = out.filter((r) => matchesMultiByte(r, args.q)).sort((a, b) => a.id - b.id);
    return (args.order && sortRows(out, args.order)) || out;
  }
  const groups = parseSearch(args.q);
  const ranked = out
    .map((r) => ({ r, rank: rankRow(r, groups) }))
    .filter((x) => x.rank > 0)
    .sort((a, b) => b.rank - a.rank || b.r.id - a.r.id)
    .map((x) => x.r);
  return (args.order && sortRows(ranked, args.order)) || ranked;
}

export interface Page<T> {
  count: number;
  page: number;
  page_size: number;
  results: T[];
}

/** The pagination envelope with Redash's checks and messages (api-queries.md §1.5). */
export function paginate<T>(rows: T[], page: number, pageSize: number): Page<T> {
  if (page < 1) throw badRequest("Page must be positive integer.");
  if (rows.length > 0 && (page - 1) * pageSize + 1 > rows.length) {
    throw badRequest("Page is out of range.");
  }
  if (pageSize > 250 || pageSize < 1) throw badRequest("Page size is out of range (1-250).");
  const start = (page - 1) * pageSize;
  return {
    count: rows.length,
    page,
    page_size: pageSize,
    results: rows.slice(start, start + pageSize),
  };
}
