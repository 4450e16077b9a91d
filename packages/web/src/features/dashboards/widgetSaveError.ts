// What a failed widget call tells the user. A widget removed elsewhere (another tab, another
// user) answers 404 with the server's generic "URL not found" text, which says nothing useful.
import { isApiError } from "../../api/errors";

export const WIDGET_GONE_TEXT =
  "This widget was removed from the dashboard, perhaps in another tab. Reload the page to see the dashboard as it is now.";

/** The widget no longer exists on the server. */
export function isWidgetGone(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** The description under "Widget could not be saved" and its siblings. */
export function widgetErrorText(error: unknown): string {
  if (isWidgetGone(error)) return WIDGET_GONE_TEXT;
  return error instanceof Error ? error.message : "";
}
