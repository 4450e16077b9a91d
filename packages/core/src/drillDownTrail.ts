// The breadcrumb trail of drill-down clicks (issue 19): the pages the user drilled through, kept
// in the browser history entry's state, so Back, reload and the breadcrumb links all agree and
// nothing is added to the address.

export interface DrillDownCrumb {
  /** The page's title as the user saw it (the dashboard's or query's name). */
  title: string;
  /** The page's address inside the app: path, search and hash. */
  path: string;
}

/** The history state key holding the trail. */
export const DRILL_DOWN_TRAIL_STATE_KEY = "drillDownTrail";

/** The longest trail kept: older pages drop off the front. */
export const DRILL_DOWN_TRAIL_MAX = 8;

/** Only addresses inside the app ("/x", never "//host" or "https://…") are followed back. */
function isAppPath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}

function readCrumb(value: unknown): DrillDownCrumb | null {
  if (typeof value !== "object" || value === null) return null;
  const { title, path } = value as Record<string, unknown>;
  if (typeof path !== "string" || !isAppPath(path)) return null;
  return { title: typeof title === "string" && title.trim() !== "" ? title : path, path };
}

/**
 * The trail in a history entry's state (anything else in it is ignored), or null when the entry
 * holds none at all: an address changed in place (a parameter applied) drops the state, and the
 * page then keeps showing the trail it had. An empty trail is a trail: the first page gone back to.
 */
export function readDrillDownTrail(state: unknown): DrillDownCrumb[] | null {
  if (typeof state !== "object" || state === null) return null;
  const raw = (state as Record<string, unknown>)[DRILL_DOWN_TRAIL_STATE_KEY];
  if (!Array.isArray(raw)) return null;
  return raw
    .map(readCrumb)
    .filter((c): c is DrillDownCrumb => c !== null)
    .slice(-DRILL_DOWN_TRAIL_MAX);
}

/** The history state of a page reached by drilling down from `from` (whose own state is `state`). */
export function drillDownTrailState(
  state: unknown,
  from: DrillDownCrumb,
): { [DRILL_DOWN_TRAIL_STATE_KEY]: DrillDownCrumb[] } {
  const trail = [...(readDrillDownTrail(state) ?? []), from].slice(-DRILL_DOWN_TRAIL_MAX);
  return { [DRILL_DOWN_TRAIL_STATE_KEY]: trail };
}

/** The history state of going back to crumb `index` of `trail`: the crumbs before it. */
export function drillDownBackState(
  trail: readonly DrillDownCrumb[],
  index: number,
): { [DRILL_DOWN_TRAIL_STATE_KEY]: DrillDownCrumb[] } {
  return { [DRILL_DOWN_TRAIL_STATE_KEY]: trail.slice(0, Math.max(0, index)) };
}

/** The page title shown in a crumb: the browser tab title without the product name after it. */
export function crumbTitle(documentTitle: string, productName: string): string {
  const suffix = ` | ${productName}`;
  return documentTitle.endsWith(suffix) ? documentTitle.slice(0, -suffix.length) : documentTitle;
}
