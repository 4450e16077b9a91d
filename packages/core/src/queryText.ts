// SQL statement normalisation and auto-limit (api-queries §6.3), and hash text normalisation (§6.1).

export const AUTO_LIMIT = 1000;

type TokenKind = "word" | "semicolon" | "comment" | "space" | "other";
interface Token {
  kind: TokenKind;
  text: string;
  /** Parenthesis depth at the token (0 = top level). */
  depth: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Index just past a quoted run starting at `start` (quote char doubled or backslash-escaped). */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && quote !== "`") {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return text.length;
}

/** A lexer good enough to find statements, comments and top-level keywords. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: TokenKind, end: number) => {
    tokens.push({ kind, text: text.slice(i, end), depth });
    i = end;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j += 1;
      push("space", j);
    } else if (
      (c === "-" && next === "-") ||
      (c === "#" && (next === undefined || /\s/.test(next)))
    ) {
      const nl = text.indexOf("\n", i);
      push("comment", nl === -1 ? text.length : nl);
    } else if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      push("comment", close === -1 ? text.length : close + 2);
    } else if (c === "'" || c === '"' || c === "`") {
      push("other", skipQuoted(text, i, c));
    } else if (c === "$") {
      // PostgreSQL dollar quoting: $tag$ ... $tag$
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(text.slice(i));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        push("other", close === -1 ? text.length : close + tag[0].length);
      } else {
        push("other", i + 1);
      }
    } else if (c === ";") {
      push("semicolon", i + 1);
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < text.length && WORD_CHAR.test(text[j])) j += 1;
      push("word", j);
    } else {
      if (c === ")") depth = Math.max(0, depth - 1);
      push("other", i + 1);
      if (c === "(") depth += 1;
    }
  }
  return tokens;
}

function splitTokens(tokens: Token[]): Token[][] {
  const statements: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === "semicolon") statements.push([]);
    else statements[statements.length - 1].push(t);
  }
  return statements;
}

const isBlank = (t: Token) => t.kind === "space" || t.kind === "comment";

/**
 * Splits into statements, strips each one's trailing comments and `;`, drops empty ones and
 * rejoins with ";\n". Applied to every SQL query whether auto-limit is on or off.
 */
export function splitSqlStatements(text: string): string[] {
  const out: string[] = [];
  for (const stmt of splitTokens(tokenize(text))) {
    let end = stmt.length;
    while (end > 0 && isBlank(stmt[end - 1])) end -= 1;
    if (!stmt.slice(0, end).some((t) => !isBlank(t))) continue;
    out.push(
      stmt
        .slice(0, end)
        .map((t) => t.text)
        .join("")
        .trim(),
    );
  }
  return out;
}

export function normalizeSqlStatements(text: string): string {
  return splitSqlStatements(text).join(";\n");
}

// Words that sqlparse treats as keywords at statement level; only the last one matters.
const KEYWORDS = new Set(
  (
    "SELECT FROM WHERE GROUP ORDER BY HAVING LIMIT OFFSET UNION ALL INTERSECT EXCEPT MINUS JOIN " +
    "INNER LEFT RIGHT FULL OUTER CROSS NATURAL ON USING AS AND OR NOT IN IS NULL LIKE ILIKE " +
    "BETWEEN CASE WHEN THEN ELSE END DISTINCT ASC DESC NULLS FIRST LAST WINDOW OVER PARTITION " +
    "FETCH NEXT ROWS ROW ONLY FOR UPDATE SHARE NOWAIT SKIP LOCKED INTO QUALIFY TOP WITH VALUES " +
    "TRUE FALSE EXISTS ANY SOME LATERAL"
  ).split(" "),
);

/** True when the (single) statement is a SELECT whose last top-level keyword is not LIMIT/OFFSET. */
export function isSelectWithoutLimit(statement: string): boolean {
  const all = tokenize(statement);
  // Like Redash, a statement that opens with a comment is not limited.
  const first = all.find((t) => t.kind !== "space");
  if (!first || first.kind !== "word" || first.text.toUpperCase() !== "SELECT") return false;
  return endsWithoutLimit(all.filter((t) => !isBlank(t)));
}

/** Whether the last top-level keyword of a statement's non-blank tokens is not LIMIT/OFFSET. */
function endsWithoutLimit(tokens: Token[]): boolean {
  for (let i = tokens.length - 1; i >= 0; i -= 1) {
    const t = tokens[i];
    if (t.depth !== 0 || t.kind !== "word") continue;
    const word = t.text.toUpperCase();
    if (!KEYWORDS.has(word)) continue;
    // "x.limit" or "t.offset" are column names, not keywords
    const prev = tokens[i - 1];
    if (prev && prev.text === ".") continue;
    return word !== "LIMIT" && word !== "OFFSET";
  }
  return false;
}

/** How a query's own text bounds the rows it returns (see rowBound). */
export type RowBound =
  /** It ends with a top-level `LIMIT rows` (optionally `OFFSET m`), as auto-limited queries do. */
  | { kind: "limit"; rows: number }
  /**
   * A SELECT that reads no table (no FROM anywhere: `SELECT 1`, `SELECT now()`) and has no LIMIT
   * or OFFSET of its own; `statement` is its text without trailing comments and `;`, to which a
   * LIMIT can be appended.
   */
  | { kind: "tableless"; statement: string };

const OPENS_A_QUERY = new Set(["SELECT", "WITH", "FROM", "VALUES"]);

/**
 * What the text of a single query statement says about its number of rows; null when it says
 * nothing (several statements, other statements, a limit that is not a plain number).
 */
export function rowBound(text: string): RowBound | null {
  const statements = splitTokens(tokenize(text)).filter((stmt) => stmt.some((t) => !isBlank(t)));
  if (statements.length !== 1) return null;
  const tokens = statements[0];
  const words = tokens.filter((t) => !isBlank(t));
  const first = words[0];
  const opening = first.kind === "word" ? first.text.toUpperCase() : first.text;
  if (opening !== "(" && !OPENS_A_QUERY.has(opening)) return null;

  const limitAt = words.findLastIndex(
    (t) => t.kind === "word" && t.depth === 0 && t.text.toUpperCase() === "LIMIT",
  );
  if (limitAt > 0 && words[limitAt - 1].text !== ".") {
    // Digits are lexed one character at a time: read the clause back as written.
    const clause = /^(\d+)(?: OFFSET \d+)?$/i.exec(
      words
        .slice(limitAt + 1)
        .map((t) => (t.kind === "word" ? ` ${t.text} ` : t.text))
        .join("")
        .replace(/\s+/g, " ")
        .trim(),
    );
    return clause ? { kind: "limit", rows: Number(clause[1]) } : null;
  }
  const readsNoTable =
    opening === "SELECT" &&
    !words.some((t) => t.kind === "word" && t.text.toUpperCase() === "FROM");
  if (!readsNoTable || !endsWithoutLimit(words)) return null;
  let end = tokens.length;
  while (isBlank(tokens[end - 1])) end -= 1;
  const statement = tokens
    .slice(0, end)
    .map((t) => t.text)
    .join("")
    .trim();
  return { kind: "tableless", statement };
}

/**
 * The text a SQL runner executes: statements normalised, and when `apply` is on and the last
 * statement is a SELECT without LIMIT/OFFSET, " LIMIT <limit>" appended to it.
 */
export function applyAutoLimit(text: string, apply: boolean, limit: number = AUTO_LIMIT): string {
  const statements = splitSqlStatements(text);
  if (statements.length === 0) return "";
  const last = statements.length - 1;
  if (apply && isSelectWithoutLimit(statements[last])) {
    statements[last] = `${statements[last]} LIMIT ${limit}`;
  }
  return statements.join(";\n");
}

/**
 * Text normalisation of the query hash: `/* ... *\/` comments (non-greedy, within one line)
 * and all whitespace removed; case kept. The server takes the MD5 of the result.
 */
export function normalizeForHash(text: string): string {
  return text.replace(/\/\*.*?\*\//g, "").replace(/\s+/g, "");
}
