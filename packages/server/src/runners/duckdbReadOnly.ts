import { createHash } from "node:crypto";
import type { DuckDBConnection } from "@duckdb/node-api";

export const DUCKDB_READ_ONLY_REFUSED =
  "This data source is read-only: only statements that read (SELECT, SHOW, DESCRIBE, …) run here. Writing files (COPY … TO, EXPORT), ATTACH and changes to tables are refused.";

/**
 * A read-only data source runs statements that read, and nothing else (SECURITY.md rule 4). Its
 * database file is opened READ_ONLY, but no DuckDB setting makes its files folder read-only
 * (allowed_directories grants reading and writing alike), and an in-memory database cannot be
 * opened read-only at all. So DuckDB's own parser decides, before anything runs:
 * json_serialize_sql parses the text (without binding it, which for EXPORT would already create
 * its folder) and serializes only SELECT statements, which SHOW, DESCRIBE, SUMMARIZE, VALUES and
 * FROM-first queries are; COPY, EXPORT, ATTACH, CREATE, SET, PRAGMA and EXPLAIN (whose ANALYZE
 * runs its statement) are not. The engine's parse tree decides, not keywords in the text.
 */
export async function assertReadsOnly(connection: DuckDBConnection, query: string): Promise<void> {
  // Comments are whitespace to the parser: texts that differ only in a leading comment (the run
  // annotation names the job) get one verdict, so a repeated query pays for the parse once.
  const key = createHash("sha256").update(withoutLeadingComments(query)).digest("base64");
  if (knownReads.has(key)) return;
  const result = await connection.runAndReadAll(
    `SELECT j->>'error_type' FROM (SELECT json_serialize_sql($1::VARCHAR) AS j)
     WHERE (j->>'error')::BOOLEAN`,
    [query],
  );
  const failed = result.getRowsJson()[0];
  if (!failed) {
    rememberReads(key);
    return;
  }
  if (failed[0] === "parser") {
    // A syntax error: DuckDB's parser says so in its own words (parsing runs nothing).
    await connection.extractStatements(query);
  }
  throw new Error(DUCKDB_READ_ONLY_REFUSED);
}

/** Hashes of texts (leading comments removed) DuckDB parsed as reads only, newest last. */
const knownReads = new Set<string>();
const KNOWN_READS_KEPT = 1000;

function rememberReads(key: string): void {
  knownReads.delete(key);
  knownReads.add(key);
  if (knownReads.size > KNOWN_READS_KEPT) knownReads.delete(knownReads.values().next().value!);
}

/** The text after its leading whitespace and block comments, nested as DuckDB nests them. */
export function withoutLeadingComments(text: string): string {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (!text.startsWith("/*", i)) return text.slice(i);
    let depth = 0;
    do {
      if (text.startsWith("/*", i)) {
        depth += 1;
        i += 2;
      } else if (text.startsWith("*/", i)) {
        depth -= 1;
        i += 2;
      } else {
        i += 1;
      }
    } while (depth > 0 && i < text.length);
    // An unterminated comment: kept whole, for the parser to report.
    if (depth > 0) return text;
  }
}
