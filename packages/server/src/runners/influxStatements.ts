// InfluxQL statements of a query text, read far enough to keep a data source to reading: each
// statement must be a SELECT without INTO, a SHOW or an EXPLAIN. Strings ('…'), quoted names
// ("…"), regexes (/…/) and comments are skipped, so a keyword inside them does not count.

/** Tokens after which a "/" opens a regex (elsewhere it divides). */
const BEFORE_REGEX = new Set(["=~", "!~", "FROM", ","]);

export interface InfluxStatement {
  /** The statement's words outside quotes and comments, upper-cased. */
  words: string[];
}

/** Splits a text into statements, keeping only the words that are not quoted. */
export function influxStatements(text: string): InfluxStatement[] {
  const statements: InfluxStatement[] = [];
  let words: string[] = [];
  let word = "";
  const endWord = () => {
    if (word) words.push(word.toUpperCase());
    word = "";
  };
  const endStatement = () => {
    endWord();
    if (words.length > 0) statements.push({ words });
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      endWord();
      // Quoted: up to the unescaped closing quote.
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === "\\") i++;
      words.push(ch === "'" ? "'STRING'" : '"NAME"');
    } else if (ch === "-" && text[i + 1] === "-") {
      endWord();
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      endWord();
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (ch === "/") {
      endWord();
      if (BEFORE_REGEX.has(words[words.length - 1] ?? "")) {
        for (i++; i < text.length && text[i] !== "/"; i++) if (text[i] === "\\") i++;
        words.push("/REGEX/");
      } else {
        words.push("/");
      }
    } else if (ch === ";") {
      endStatement();
    } else if (/[A-Za-z0-9_]/.test(ch)) {
      word += ch;
    } else {
      endWord();
      if (!/\s/.test(ch)) {
        const pair = text.slice(i, i + 2);
        if (pair === "=~" || pair === "!~") {
          words.push(pair);
          i++;
        } else {
          words.push(ch);
        }
      }
    }
  }
  endStatement();
  return statements;
}

const READING = new Set(["SELECT", "SHOW", "EXPLAIN"]);

/** The reason a query is refused (it may change data), or null when every statement reads. */
export function writingStatement(text: string): string | null {
  for (const { words } of influxStatements(text)) {
    const first = words[0];
    if (!READING.has(first)) {
      return `Only SELECT, SHOW and EXPLAIN statements run on an InfluxDB data source; ${first} may change data.`;
    }
    if (first === "SELECT" && words.includes("INTO")) {
      return "SELECT … INTO writes data; it does not run on an InfluxDB data source.";
    }
  }
  return null;
}

/** Whether any statement is a SELECT (whose columns are typed from the measurements' keys). */
export function hasSelect(text: string): boolean {
  return influxStatements(text).some(({ words }) => words[0] === "SELECT");
}
