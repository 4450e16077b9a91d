// Opening a drill-down address (issue 19), shared by the dashboard's widgets, the table's link
// cells and the breadcrumbs: the target opens in this tab through the router, with the page left
// added to the breadcrumb trail in the history state, or in a new tab (handed the trail).
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { DRILL_DOWN_TRAIL_STATE_KEY, crumbTitle, drillDownTrailState } from "@sightline/core";
import { PRODUCT_NAME } from "../usePageTitle";
import { handOffTrail } from "./trailHandoff";

/**
 * Opens an in-app address: in a new tab, or here with this page added to the trail. A new tab is
 * handed the trail too, so its page shows the way back as well.
 */
export function useOpenDrillDownHref(): (href: string, newTab: boolean) => void {
  const navigate = useNavigate();
  const nextState = useNextTrailState();
  return useCallback(
    (href: string, newTab: boolean) => {
      const state = nextState();
      if (newTab) {
        handOffTrail(href, state[DRILL_DOWN_TRAIL_STATE_KEY]);
        window.open(href, "_blank", "noopener");
        return;
      }
      navigate(href, { state });
    },
    [navigate, nextState],
  );
}

/**
 * For a link the browser opens in a new tab itself (a middle click, Ctrl/⌘-click, a link set to
 * open a new tab): hands that tab the trail, this page added.
 */
export function useHandOffTrail(): (href: string) => void {
  const nextState = useNextTrailState();
  return useCallback(
    (href: string) => handOffTrail(href, nextState()[DRILL_DOWN_TRAIL_STATE_KEY]),
    [nextState],
  );
}

/** The history state of a page drilled to from this one: its trail with this page added. */
function useNextTrailState() {
  const location = useLocation();
  return useCallback(() => {
    // Read when the click happens: the tab title is the page's own by then.
    const from = {
      title: crumbTitle(document.title, PRODUCT_NAME),
      path: location.pathname + location.search + location.hash,
    };
    return drillDownTrailState(location.state, from);
  }, [location]);
}

/**
 * Whether a click on a link should be left to the browser (a new tab or window, a download), or
 * followed inside the app: only a plain left click is ours.
 */
export function isPlainLeftClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
