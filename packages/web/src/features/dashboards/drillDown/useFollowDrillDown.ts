// Following a widget's drill-down link (issue 19) for a clicked value: the link's address with the
// clicked row's values, opened as any drill-down address is.
import { useCallback } from "react";
import { drillDownHref, type DrillDownLink } from "@sightline/core";
import { useOpenDrillDownHref } from "../../../components/drillDown/useOpenDrillDownHref";

/**
 * Follows a widget's link for a clicked row (column → value). `newTab` asks for a new tab even
 * when the link opens in this one (Ctrl/⌘ held, as on any link).
 */
export function useFollowDrillDown(): (
  link: DrillDownLink,
  row: Readonly<Record<string, unknown>>,
  newTab?: boolean,
) => void {
  const open = useOpenDrillDownHref();
  return useCallback(
    (link, row, newTab = false) => open(drillDownHref(link, row), link.newTab || newTab),
    [open],
  );
}
