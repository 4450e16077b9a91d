// Opening a drill-down address (issue 19), shared by the dashboard's widgets, the table's link
// cells and the breadcrumbs: the target opens in this tab through the router, with the page left
// added to the breadcrumb trail in the history state, or in a new tab.
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { crumbTitle, drillDownTrailState } from "@sightline/core";
import { PRODUCT_NAME } from "../usePageTitle";

/** Opens an in-app address: in a new tab, or here with this page added to the trail. */
export function useOpenDrillDownHref(): (href: string, newTab: boolean) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (href: string, newTab: boolean) => {
      if (newTab) {
        window.open(href, "_blank", "noopener");
        return;
      }
      // Read when the click happens: the tab title is the page's own by then.
      const from = {
        title: crumbTitle(document.title, PRODUCT_NAME),
        path: location.pathname + location.search + location.hash,
      };
      navigate(href, { state: drillDownTrailState(location.state, from) });
    },
    [navigate, location],
  );
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
