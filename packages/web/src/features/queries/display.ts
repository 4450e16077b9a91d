// How query fields read on screen: dates in the organisation's format, schedules in local time.
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc";
import { schedulePhrase, type ClientConfig, type Schedule } from "@sightline/core";

dayjs.extend(utc);

/** A stored UTC "HH:mm" shown in the browser's local time. */
export function localTimeOf(utcTime: string): string {
  const [h, m] = utcTime.split(":").map(Number);
  return dayjs.utc().hour(h).minute(m).local().format("HH:mm");
}

export function formatDateTime(value: string | null | undefined, config: ClientConfig): string {
  if (!value) return "";
  const d = dayjs(value);
  return d.isValid() ? d.format(config.dateTimeFormat || "DD/MM/YY HH:mm") : "";
}

export function scheduleText(schedule: Schedule | null | undefined): string {
  return schedulePhrase(schedule ?? null, localTimeOf).short;
}

export function scheduleFullText(schedule: Schedule | null | undefined): string {
  return schedulePhrase(schedule ?? null, localTimeOf).full;
}
