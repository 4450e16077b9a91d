// The widget footer's line: when the result shown was retrieved. After a failed refresh the old
// result is all there is, so the line says the refresh failed and how old that result is rather
// than "Updated just now". While the body still waits for its drawing, the line says it loads:
// "Updated just now" over an empty body read as "this widget has nothing".
import { relativeTime } from "@sightline/core";

export const REFRESH_FAILED = "Refresh failed";
export const LOADING = "Loading…";

export function widgetFooterText(
  retrievedAt: string | null | undefined,
  failed: boolean,
  now: Date,
  /** The body shows the result (false: it still shows the spinner). */
  shown = true,
): string {
  const age = retrievedAt ? relativeTime(new Date(retrievedAt), now) : null;
  if (failed) return age ? `${REFRESH_FAILED} · last result ${age}` : REFRESH_FAILED;
  if (!shown) return LOADING;
  return age ? `Updated ${age}` : "";
}
