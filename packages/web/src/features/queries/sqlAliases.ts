// Table aliases of a SQL text ("from orders o", "join customers as c"), so that completion after
// "o." offers the columns of orders. A light scan, not a parser: it reads what follows FROM, JOIN
// and the commas of a FROM list, which covers how aliases are written in practice.

/** Words that follow a table name without being its alias. */
const NOT_ALIASES = new Set([
  "where",
  "join",
  "inner",
  "left",
  "right",
  "full",
  "outer",
  "cross",
  "natural",
  "on",
  "using",
  "group",
  "order",
  "having",
  "limit",
  "offset",
  "union",
  "except",
  "intersect",
  "window",
  "as",
  "lateral",
  "tablesample",
  "fetch",
  "for",
  "qualify",
  "set",
  "values",
  "select",
  "with",
]);

const IDENTIFIER = String.raw`(?:"[^"]+"|\x60[^\x60]+\x60|\[[^\]]+\]|[\w$]+)`;
const QUALIFIED = String.raw`${IDENTIFIER}(?:\.${IDENTIFIER})*`;
/** A table reference with an optional alias, after FROM, JOIN or a FROM list's comma. */
const TABLE_WITH_ALIAS = new RegExp(
  String.raw`(?:\bfrom|\bjoin|,)\s+(${QUALIFIED})(?:\s+(?:as\s+)?(${IDENTIFIER}))?`,
  "gi",
);

function unquote(name: string): string {
  return name
    .split(".")
    .map((part) => part.replace(/^["`[]|["`\]]$/g, ""))
    .join(".");
}

/** Alias (lower-cased) → the table name it stands for, as written (unquoted). */
export function tableAliases(text: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const match of text.matchAll(TABLE_WITH_ALIAS)) {
    const [, table, alias] = match;
    if (!table || !alias) continue;
    const name = unquote(alias).toLowerCase();
    if (NOT_ALIASES.has(name) || NOT_ALIASES.has(unquote(table).toLowerCase())) continue;
    if (!aliases.has(name)) aliases.set(name, unquote(table));
  }
  return aliases;
}
