// The text of a Redis query: one command, written as in redis-cli ("double quotes" with
// escapes, 'single quotes'), of the commands that only read. Each command's answer becomes a
// table with typed columns.
import type { Cell, ColumnType } from "./types";
import { dateCell } from "./values";

/** The commands a Redis data source runs; none of them changes data. */
export const READ_COMMANDS = [
  "GET",
  "MGET",
  "HGETALL",
  "LRANGE",
  "SMEMBERS",
  "ZRANGE",
  "XRANGE",
  "SCAN",
  "INFO",
] as const;
export type ReadCommand = (typeof READ_COMMANDS)[number];

export interface RedisCommand {
  name: ReadCommand;
  args: string[];
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", a: "\x07" };

/** Splits a command line as redis-cli does. */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    let word = "";
    let quoted = false;
    while (i < text.length && !/\s/.test(text[i])) {
      const ch = text[i];
      if (ch === '"' || ch === "'") {
        quoted = true;
        const close = ch;
        i++;
        for (;;) {
          if (i >= text.length) throw new Error("Unbalanced quotes in the command.");
          const c = text[i];
          if (c === close) {
            i++;
            break;
          }
          if (c === "\\" && close === '"' && i + 1 < text.length) {
            const next = text[i + 1];
            const hex = /^x([0-9a-fA-F]{2})/.exec(text.slice(i + 1, i + 4));
            if (hex) {
              word += String.fromCharCode(parseInt(hex[1], 16));
              i += 4;
            } else {
              word += ESCAPES[next] ?? next;
              i += 2;
            }
            continue;
          }
          if (c === "\\" && close === "'" && text[i + 1] === "'") {
            word += "'";
            i += 2;
            continue;
          }
          word += c;
          i++;
        }
      } else {
        word += ch;
        i++;
      }
    }
    if (word !== "" || quoted) words.push(word);
  }
  return words;
}

/** Reads the query text: one read-only command, or an Error saying what runs. */
export function parseRedisCommand(text: string): RedisCommand {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("--"));
  if (lines.length === 0) throw new Error("Query is empty: write a Redis command, e.g. GET key.");
  if (lines.length > 1) throw new Error("A Redis query is one command on one line.");
  const [first, ...args] = splitCommandLine(lines[0]);
  const name = (first ?? "").toUpperCase();
  if (!(READ_COMMANDS as readonly string[]).includes(name)) {
    throw new Error(
      `Only these read-only commands run on a Redis data source: ${READ_COMMANDS.join(", ")} (not ${first}).`,
    );
  }
  const needs: Partial<Record<ReadCommand, number>> = {
    GET: 1,
    MGET: 1,
    HGETALL: 1,
    LRANGE: 3,
    SMEMBERS: 1,
    ZRANGE: 3,
    XRANGE: 3,
  };
  const count = needs[name as ReadCommand] ?? 0;
  if (args.length < count) {
    const usage: Record<string, string> = {
      GET: "GET key",
      MGET: "MGET key [key ...]",
      HGETALL: "HGETALL key",
      LRANGE: "LRANGE key start stop",
      SMEMBERS: "SMEMBERS key",
      ZRANGE: "ZRANGE key start stop [WITHSCORES]",
      XRANGE: "XRANGE key start end [COUNT count]",
    };
    throw new Error(`${name} needs more arguments: ${usage[name]}.`);
  }
  if (name === "GET" && args.length > 1) throw new Error("GET takes one key (MGET takes several).");
  return { name: name as ReadCommand, args };
}

export interface RedisTable {
  columns: { name: string; type: ColumnType }[];
  rows: Cell[][];
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
}

function score(value: unknown): number | null {
  const number = Number(text(value));
  return Number.isFinite(number) ? number : null;
}

/** Field/value or member/score pairs, given flat ([a, 1, b, 2]) or paired ([[a, 1], [b, 2]]). */
function pairs(answer: unknown): [unknown, unknown][] {
  const list = Array.isArray(answer) ? (answer as unknown[]) : [];
  if (list.every((item) => Array.isArray(item))) return list as [unknown, unknown][];
  const result: [unknown, unknown][] = [];
  for (let i = 0; i + 1 < list.length; i += 2) result.push([list[i], list[i + 1]]);
  return result;
}

/** A stream entry's id ("1700000000000-0") → its time in UTC. */
function streamTime(id: string): Cell {
  const ms = Number(id.split("-")[0]);
  return Number.isFinite(ms) ? dateCell(new Date(ms), "datetime") : null;
}

/** INFO's text → one row per setting: section, name, value. */
export function infoTable(answer: string): RedisTable {
  const rows: Cell[][] = [];
  let section = "";
  for (const line of answer.split(/\r?\n/)) {
    if (line.startsWith("# ")) section = line.slice(2).trim();
    else if (line.includes(":")) {
      const at = line.indexOf(":");
      rows.push([section, line.slice(0, at), line.slice(at + 1)]);
    }
  }
  return {
    columns: [
      { name: "section", type: "string" },
      { name: "name", type: "string" },
      { name: "value", type: "string" },
    ],
    rows,
  };
}

/** A command's answer (all but SCAN, which the runner pages) → a table. */
export function commandTable(command: RedisCommand, answer: unknown): RedisTable {
  switch (command.name) {
    case "GET":
      return {
        columns: [
          { name: "key", type: "string" },
          { name: "value", type: "string" },
        ],
        rows: answer === null ? [] : [[command.args[0], text(answer)]],
      };
    case "MGET":
      return {
        columns: [
          { name: "key", type: "string" },
          { name: "value", type: "string" },
        ],
        rows: (answer as unknown[]).map((value, i) => [command.args[i], text(value)]),
      };
    case "HGETALL": {
      const rows = pairs(answer).map(([field, value]): Cell[] => [text(field), text(value)]);
      return {
        columns: [
          { name: "field", type: "string" },
          { name: "value", type: "string" },
        ],
        rows,
      };
    }
    case "LRANGE": {
      const start = Number(command.args[1]);
      const list = answer as unknown[];
      // A negative start counts from the end; the index is only known for a start ≥ 0.
      return {
        columns: [
          { name: "index", type: "integer" },
          { name: "value", type: "string" },
        ],
        rows: list.map((value, i) => [start >= 0 ? start + i : null, text(value)]),
      };
    }
    case "SMEMBERS":
      return {
        columns: [{ name: "member", type: "string" }],
        rows: (answer as unknown[]).map((value) => [text(value)]).sort(),
      };
    case "ZRANGE": {
      const list = answer as unknown[];
      const withScores = command.args.some((arg) => arg.toUpperCase() === "WITHSCORES");
      if (!withScores) {
        return {
          columns: [{ name: "member", type: "string" }],
          rows: list.map((value) => [text(value)]),
        };
      }
      const rows = pairs(list).map(([member, value]): Cell[] => [text(member), score(value)]);
      return {
        columns: [
          { name: "member", type: "string" },
          { name: "score", type: "float" },
        ],
        rows,
      };
    }
    case "XRANGE": {
      // One column per field across every entry.
      const entries = answer as [unknown, unknown[]][];
      const fields: string[] = [];
      const seen = new Set<string>();
      const parsed = entries.map(([id, list]) => {
        const values = new Map<string, string | null>();
        for (const [name, value] of pairs(list)) {
          const field = text(name) ?? "";
          if (!seen.has(field)) {
            seen.add(field);
            fields.push(field);
          }
          values.set(field, text(value));
        }
        return { id: text(id) ?? "", values };
      });
      return {
        columns: [
          { name: "id", type: "string" },
          { name: "time", type: "datetime" },
          ...fields.map((name) => ({ name, type: "string" as const })),
        ],
        rows: parsed.map(({ id, values }) => [
          id,
          streamTime(id),
          ...fields.map((field) => values.get(field) ?? null),
        ]),
      };
    }
    case "INFO":
      return infoTable(text(answer) ?? "");
    case "SCAN":
      throw new Error("SCAN is paged by the runner.");
  }
}
