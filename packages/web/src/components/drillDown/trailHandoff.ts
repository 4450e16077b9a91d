// A drill-down opened in a new tab keeps its breadcrumb. The trail cannot ride in the new tab's
// history state as it does within a tab, so the opening page leaves it in localStorage under the
// address it opens, and the page opened there takes it up. Entries last half a minute: a later
// visit to the same address starts without a breadcrumb.
import {
  DRILL_DOWN_TRAIL_STATE_KEY,
  readDrillDownTrail,
  type DrillDownCrumb,
} from "@sightline/core";

const STORAGE_KEY = "sightline.drillDownTrails";
/** How long a handed-off trail waits for its tab. */
export const HANDOFF_MS = 30_000;

interface Handoff {
  path: string;
  trail: DrillDownCrumb[];
  at: number;
}

/** An in-app address as the browser will show it ("/x?a=b c" and "/x?a=b%20c" are one). */
function normalPath(path: string): string {
  const url = new URL(path, window.location.origin);
  return url.pathname + url.search + url.hash;
}

/** The fresh entries; whatever is not a list of entries reads as none. */
function freshHandoffs(now: number): Handoff[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]");
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (h): h is Handoff =>
        typeof h === "object" &&
        h !== null &&
        typeof h.path === "string" &&
        typeof h.at === "number" &&
        now - h.at < HANDOFF_MS &&
        h.at <= now,
    );
  } catch {
    return [];
  }
}

/** Leaves `trail` for the tab about to open `path`. */
export function handOffTrail(path: string, trail: DrillDownCrumb[], now = Date.now()): void {
  const target = normalPath(path);
  const kept = freshHandoffs(now).filter((h) => h.path !== target);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...kept, { path: target, trail, at: now }]));
  } catch {
    // Storage turned off or full: the new tab opens without a breadcrumb.
  }
}

/** The trail left for `path` by the page that opened this tab, if any (checked as a trail is). */
export function handedOffTrail(path: string, now = Date.now()): DrillDownCrumb[] | null {
  const target = normalPath(path);
  const found = freshHandoffs(now).find((h) => h.path === target);
  if (!found) return null;
  const trail = readDrillDownTrail({ [DRILL_DOWN_TRAIL_STATE_KEY]: found.trail });
  return trail && trail.length > 0 ? trail : null;
}
