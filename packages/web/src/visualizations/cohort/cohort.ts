// COHORT: options and the rows × stages matrix (catalogue 9).
import { dayjs, parseDate } from "../lib/dateFormat";
import { asObject, mergeOptions } from "../lib/merge";
import { toNumber } from "../lib/numberFormat";
import type { Options, QueryResultData } from "../types";

export interface CohortOptions extends Options {
  dateColumn: string;
  stageColumn: string;
  totalColumn: string;
  valueColumn: string;
  timeInterval: "daily" | "weekly" | "monthly";
  mode: "diagonal" | "simple";
  showTooltips: boolean;
  percentValues: boolean;
  timeColumnTitle: string;
  peopleColumnTitle: string;
  stageColumnTitle: string;
  numberFormat: string;
  percentFormat: string;
  noValuePlaceholder: string;
  colors: { min: string; max: string; steps: number };
}

export const cohortDefaults = (): CohortOptions => ({
  dateColumn: "date",
  stageColumn: "day_number",
  totalColumn: "total",
  valueColumn: "value",
  timeInterval: "daily",
  mode: "diagonal",
  showTooltips: true,
  percentValues: true,
  timeColumnTitle: "Time",
  peopleColumnTitle: "Users",
  stageColumnTitle: "{{ @ }}",
  numberFormat: "0,0[.]00",
  percentFormat: "0.00%",
  noValuePlaceholder: "-",
  colors: { min: "#ffffff", max: "#002FB4", steps: 7 },
});

export const getCohortOptions = (stored: Options | null | undefined) =>
  mergeOptions(cohortDefaults(), asObject(stored));

export interface CohortRow {
  date: Date;
  label: string;
  total: number;
  /** Stage values; null shows the placeholder; undefined means the cell is outside the triangle. */
  values: (number | null | undefined)[];
}

export interface Cohort {
  rows: CohortRow[];
  stageCount: number;
  notices: string[];
}

const UNIT = { daily: "day", weekly: "week", monthly: "month" } as const;
const LABEL_FORMAT = {
  daily: "MMMM D, YYYY",
  weekly: "[Week of] MMM D, YYYY",
  monthly: "MMMM YYYY",
} as const;

export function buildCohort(data: QueryResultData, o: CohortOptions): Cohort {
  const notices: string[] = [];
  const names = new Set(data.columns.map((c) => c.name));
  const missing = [o.dateColumn, o.stageColumn, o.totalColumn, o.valueColumn].filter(
    (c) => !names.has(c),
  );
  if (missing.length)
    return {
      rows: [],
      stageCount: 0,
      notices: [`Column${missing.length > 1 ? "s" : ""} not in the result: ${missing.join(", ")}.`],
    };
  if (data.rows.length === 0) return { rows: [], stageCount: 0, notices };
  const interval = o.timeInterval in UNIT ? o.timeInterval : "daily";
  const unit = UNIT[interval];
  const entries = data.rows
    .map((r) => ({
      date: parseDate(r[o.dateColumn]),
      stage: toNumber(r[o.stageColumn]),
      total: toNumber(r[o.totalColumn]) ?? 0,
      value: toNumber(r[o.valueColumn]),
    }))
    .filter((e) => e.date !== null && e.stage !== null) as {
    date: dayjs.Dayjs;
    stage: number;
    total: number;
    value: number | null;
  }[];
  if (entries.length < data.rows.length)
    notices.push("Some rows have no valid date or stage and were skipped.");
  if (entries.length === 0) return { rows: [], stageCount: 0, notices };
  entries.sort((a, b) => a.date.valueOf() - b.date.valueOf() || a.stage - b.stage);
  const first = entries[0].date.startOf(unit === "week" ? "day" : unit);
  const last = entries[entries.length - 1].date;
  const minStage = Math.min(...entries.map((e) => e.stage));
  const maxStage = Math.max(...entries.map((e) => e.stage));
  const bucketCount = Math.max(1, Math.floor(last.diff(first, unit)) + 1);
  const buckets = Array.from({ length: bucketCount }, () => ({
    total: 0,
    values: new Map<number, number | null>(),
  }));
  for (const e of entries) {
    const i = Math.floor(e.date.diff(first, unit));
    if (i < 0 || i >= bucketCount) continue;
    buckets[i].total = e.total;
    buckets[i].values.set(e.stage, e.value);
  }
  const stageCount = o.mode === "simple" ? maxStage - minStage + 1 : bucketCount;
  const rows = buckets.map((b, i) => {
    const date = first.add(i, unit);
    const length = o.mode === "simple" ? stageCount : bucketCount - i;
    const values: (number | null | undefined)[] = [];
    for (let s = 0; s < stageCount; s++) {
      if (s >= length) values.push(undefined);
      else {
        const v = b.values.get(minStage + s);
        values.push(v === undefined || v === null ? (o.mode === "diagonal" ? 0 : null) : v);
      }
    }
    return {
      date: date.toDate(),
      label: date.format(LABEL_FORMAT[interval]),
      total: b.total,
      values,
    };
  });
  return { rows, stageCount, notices };
}

/** The colour class of a 0–100 percentage, 0..steps-1. */
export function colorStep(percent: number, steps: number): number {
  const n = Math.min(20, Math.max(3, Math.round(steps) || 7));
  return Math.min(n - 1, Math.max(0, Math.floor((percent / 100) * n)));
}
