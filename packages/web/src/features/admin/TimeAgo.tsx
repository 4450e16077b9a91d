import { relativeTime } from "@sightline/core";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import { useSession } from "../../app/session";

/** Relative times refresh every 30 s (spec 1 §9). */
export const RELATIVE_TIME_REFRESH_MS = 30_000;

/** The current time, renewed every `intervalMs`. */
export function useNow(intervalMs = RELATIVE_TIME_REFRESH_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Epoch seconds, epoch milliseconds or an ISO string as a Date; null when there is none. */
export function toDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return new Date(value < 1e12 ? value * 1000 : value);
  const numeric = Number(value);
  if (Number.isFinite(numeric)) return toDate(numeric);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

interface TimeAgoProps {
  date: string | number | null | undefined;
  /** Text when there is no date. */
  placeholder?: string;
}

/** "5 minutes ago", with the full date and time as tooltip. */
export function TimeAgo({ date, placeholder = "-" }: TimeAgoProps) {
  const now = useNow();
  const { client_config } = useSession();
  const value = toDate(date);
  if (!value) return <span>{placeholder}</span>;
  return (
    <time dateTime={value.toISOString()} title={dayjs(value).format(client_config.dateTimeFormat)}>
      {relativeTime(value, now)}
    </time>
  );
}
