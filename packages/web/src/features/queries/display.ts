// How query fields read on screen: dates in the organisation's format, schedules in local time.
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc";
import {
  schedulePhrase,
  type ClientConfig,
  type QueryResultData,
  type Schedule,
} from "@sightline/core";

dayjs.extend(utc);

/** A stored UTC "HH:mm" shown in the browser's local time. */
export function localTimeOf(utcTime: string): string {
  const [h, m] = utcTime.split(":").map(Number);
  return dayjs.utc().hour(h).minute(m).local().format("HH:mm");
}

export function formatDateTime(value: string | null | undefined, config: ClientConfig): string {
  if (!value) return "";
  const d = dayjs(value);
  return d.isValid() ? d.format(config.dateTimeFormat || "YYYY-MM-DD HH:mm") : "";
}

export function scheduleText(schedule: Schedule | null | undefined): string {
  return schedulePhrase(schedule ?? null, localTimeOf).short;
}

export function scheduleFullText(schedule: Schedule | null | undefined): string {
  return schedulePhrase(schedule ?? null, localTimeOf).full;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Why a result's rows were cut, or null when they were not. A cut by Sightline's display cap
 * says so (the result and its downloads hold every row); a stored result cut at the stored-rows
 * cap says that instead. Redash's own text is kept for a `truncated` flag with neither detail.
 */
export function truncationMessage(data: QueryResultData): string | null {
  if (!data.truncated) return null;
  const shown = data.rows.length;
  const total = data.row_count;
  if (total !== undefined && total > shown) {
    return data.stored_truncated
      ? `Showing the first ${count(shown)} of the ${count(total)} rows kept: the query returned ` +
          `more, and results are cut at ${count(total)} rows. Downloads contain the ` +
          `${count(total)} rows kept.`
      : `This result has ${count(total)} rows; the first ${count(shown)} are shown here. ` +
          `Downloads contain all ${count(total)} rows.`;
  }
  if (data.stored_truncated) {
    return `Result truncated to ${count(shown)} rows: the query returned more, and results are cut at this many rows.`;
  }
  return `Result truncated to ${count(shown)} rows. Databricks may truncate query results that are unstably large.`;
}

/** "1 Row", "12,345 Rows". */
export function rowCountText(n: number): string {
  return `${count(n)} ${n === 1 ? "Row" : "Rows"}`;
}
