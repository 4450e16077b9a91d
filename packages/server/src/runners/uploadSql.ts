/**
 * The SQL of an `uploads` data source names its files by name ('sales.csv'); DuckDB's sandbox
 * allows only absolute paths inside the data source's folder, so those string literals are given
 * the folder before the query runs. Only literals that are a plain file name with an extension
 * uploads may have, or a pattern of such names ('*.csv'), are touched; comments and quoted
 * identifiers are skipped.
 */

/** A literal that may name uploaded files: no folder, no "..", an uploads extension at the end. */
function namesFiles(literal: string, extensions: string[]): boolean {
  if (literal.includes("/") || literal.includes("\\") || literal.includes("..")) return false;
  if (literal.startsWith(".") || literal.trim() !== literal) return false;
  const lower = literal.toLowerCase();
  return extensions.some((ext) => lower.endsWith(ext));
}

/**
 * The query with each string literal that names uploaded files replaced by `resolve(name)`
 * (absolute paths). `resolve` returns null to leave a literal as written.
 */
export function withFilePaths(
  sql: string,
  extensions: string[],
  resolve: (name: string) => string | null,
): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const rest = sql.startsWith.bind(sql);
    if (rest("--", i)) {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (rest("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (sql[i] === '"' || sql[i] === "'") {
      const quote = sql[i]!;
      let j = i + 1;
      let value = "";
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === quote) {
          if (sql[j + 1] === quote) {
            value += quote;
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j];
        j += 1;
      }
      const stop = Math.min(j + 1, sql.length);
      const resolved =
        quote === "'" && j < sql.length && namesFiles(value, extensions) ? resolve(value) : null;
      out += resolved === null ? sql.slice(i, stop) : `'${resolved.replace(/'/g, "''")}'`;
      i = stop;
    } else {
      out += sql[i];
      i += 1;
    }
  }
  return out;
}
