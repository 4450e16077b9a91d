// The widget footer's line: when the result shown was retrieved. After a failed refresh the old
// result is all there is, so the line says the refresh failed and how old that result is rather
// than "Updated just now".
import { relativeTime } from "@sightline/core";

export const REFRESH_FAILED = "Refresh failed";

export function widgetFooterText(
  retrievedAt: string | null | undefined,
  failed: boolean,
  now: Date,
): string {
  const age = retrievedAt ? relativeTime(new Date(retrievedAt), now) : null;
  if (failed) return age ? `${REFRESH_FAILED} · last result ${age}` : REFRESH_FAILED;
  return age ? `Updated ${age}` : "";
}
