// InfluxQL statements of a query text, read far enough to keep a data source to reading (each
// statement must be a SELECT without INTO, a SHOW or an EXPLAIN) and to find the measurements a
// SELECT names, with their databases. Strings ('…'), quoted names ("…"), regexes (/…/) and
// comments are skipped, so a keyword inside them does not count.

/** Tokens after which a "/" opens a regex (elsewhere it divides). */
const BEFORE_REGEX = new Set(["=~", "!~", "FROM", ","]);

export interface InfluxStatement {
  /** The statement's words outside quotes and comments, upper-cased. */
  words: string[];
  /** Each word as written: a name keeps its case, a quoted name its unescaped text. */
  texts: string[];
}

/** Splits a text into statements, keeping only the words that are not quoted. */
export function influxStatements(text: string): InfluxStatement[] {
  const statements: InfluxStatement[] = [];
  let words: string[] = [];
  let texts: string[] = [];
  let word = "";
  const push = (upper: string, written = upper) => {
    words.push(upper);
    texts.push(written);
  };
  const endWord = () => {
    if (word) push(word.toUpperCase(), word);
    word = "";
  };
  const endStatement = () => {
    endWord();
    if (words.length > 0) statements.push({ words, texts });
    words = [];
    texts = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      endWord();
      // Quoted: up to the unescaped closing quote.
      let quoted = "";
      for (i++; i < text.length && text[i] !== ch; i++) {
        if (text[i] === "\\") i++;
        quoted += text[i] ?? "";
      }
      if (ch === "'") push("'STRING'");
      else push('"NAME"', quoted);
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
        push("/REGEX/");
      } else {
        push("/");
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
          push(pair);
          i++;
        } else {
          push(ch);
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

/** A measurement a SELECT reads, with the database it names (null: the data source's). */
export interface SelectSource {
  database: string | null;
  measurement: string;
}

/** Whether a word is a name (bare or quoted), which a source is made of. */
function isName(word: string): boolean {
  return word === '"NAME"' || /^[A-Z_][A-Z0-9_]*$/.test(word);
}

/**
 * The measurements named after FROM in SELECT statements: `m`, `rp.m`, `db.rp.m` and `db..m`
 * (regexes and subqueries are left out: their measurements are not named).
 */
export function selectSources(text: string): SelectSource[] {
  const sources: SelectSource[] = [];
  for (const { words, texts } of influxStatements(text)) {
    if (words[0] !== "SELECT") continue;
    for (let i = words.indexOf("FROM") + 1; i > 0 && i < words.length;) {
      // One source: names separated by dots, where an empty part (`db..m`) is no name.
      const parts: string[] = [];
      let expectName = true;
      for (; i < words.length; i++) {
        if (words[i] === ".") {
          if (expectName) parts.push("");
          expectName = true;
        } else if (expectName && isName(words[i])) {
          parts.push(texts[i]);
          expectName = false;
        } else break;
      }
      const measurement = parts[parts.length - 1];
      if (measurement)
        sources.push({ database: parts.length === 3 ? parts[0] : null, measurement });
      if (words[i] !== ",") break;
      // Skip to the next source past a regex or a subquery.
      for (i++; i < words.length && words[i] !== "," && !isName(words[i]); i++);
    }
  }
  return sources;
}
