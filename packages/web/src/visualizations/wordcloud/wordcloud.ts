// WORD_CLOUD: word frequencies, sizes computed before the limits filter words (catalogue 13).
import { asObject, mergeOptions } from "../lib/merge";
import { toNumber } from "../lib/numberFormat";
import type { Options, QueryResultData } from "../types";

export interface WordCloudOptions extends Options {
  column: string;
  frequenciesColumn: string;
  wordLengthLimit: { min: number | null; max: number | null };
  wordCountLimit: { min: number | null; max: number | null };
}

export const wordCloudDefaults = (): WordCloudOptions => ({
  column: "",
  frequenciesColumn: "",
  wordLengthLimit: { min: null, max: null },
  wordCountLimit: { min: null, max: null },
});

export const getWordCloudOptions = (stored: Options | null | undefined) =>
  mergeOptions(wordCloudDefaults(), asObject(stored));

export interface Word {
  text: string;
  count: number;
  fontSize: number;
}

const within = (v: number, limit: { min: number | null; max: number | null }) => {
  const min = toNumber(limit.min);
  const max = toNumber(limit.max);
  return (!min || v >= min) && (!max || v <= max);
};

export function buildWords(data: QueryResultData, o: WordCloudOptions): Word[] {
  if (!o.column || !data.columns.some((c) => c.name === o.column)) return [];
  const counts = new Map<string, number>();
  const byFrequency =
    !!o.frequenciesColumn && data.columns.some((c) => c.name === o.frequenciesColumn);
  for (const row of data.rows) {
    const cell = row[o.column];
    if (cell === null || cell === undefined) continue;
    if (byFrequency) {
      const f = toNumber(row[o.frequenciesColumn]);
      if (f !== null && f > 0) counts.set(String(cell), f);
    } else {
      for (const w of String(cell).split(/\s+/)) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const words = [...counts.entries()]
    .map(([text, count]) => ({ text, count }))
    .sort((a, b) => b.count - a.count || b.text.length - a.text.length);
  const min = Math.min(...words.map((w) => w.count));
  const max = Math.max(...words.map((w) => w.count));
  const size = (c: number) => (max === min ? 100 : 10 + ((c - min) / (max - min)) * 90);
  return words
    .map((w) => ({ ...w, fontSize: size(w.count) }))
    .filter((w) => within(w.text.length, o.wordLengthLimit) && within(w.count, o.wordCountLimit));
}
