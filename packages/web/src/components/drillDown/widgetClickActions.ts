// What a click on a dashboard widget's value does (issue 25): open the widget's drill-down
// target, cross-filter the dashboard, or, when both apply, either, from a small menu at the click.
// The tooltip says which ("Click to open Country detail or filter the dashboard").
import { useMemo } from "react";
import type { DrillDownLink } from "@sightline/core";
import type { DatumAction, DatumClick } from "../../visualizations";

/** The name a link's target goes by: its stored name, or its kind and id. */
export function targetName(link: DrillDownLink): string {
  return link.target.name ?? `${link.target.type} #${link.target.id}`;
}

const LONGEST_VALUE = 40;

/** A clicked value as a menu item shows it: dates as ISO text, long texts cut. */
export function valueLabel(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "null";
  else if (value instanceof Date) {
    const iso = value.toISOString();
    text = iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
  } else text = String(value);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}

/**
 * The actions of a widget's clicks: its drill-down first (while it is followed), then its
 * cross-filter (while the widget takes part); undefined when a click does nothing.
 */
export function widgetClickActions(
  link: DrillDownLink | null,
  follow: ((click: DatumClick) => void) | undefined,
  filter: ((click: DatumClick) => void) | undefined,
): DatumAction[] | undefined {
  const actions: DatumAction[] = [];
  if (link && follow) {
    const name = targetName(link);
    actions.push({
      key: "drill-down",
      label: () => `Open ${name}`,
      hint: `open ${name}`,
      run: follow,
    });
  }
  if (filter)
    actions.push({
      key: "filter",
      label: (click) => `Filter by ${click.column}: ${valueLabel(click.value)}`,
      hint: "filter the dashboard",
      run: filter,
    });
  return actions.length > 0 ? actions : undefined;
}

/** widgetClickActions, the same array while its inputs stay (the renderer is memoised). */
export function useWidgetClickActions(
  link: DrillDownLink | null,
  follow: ((click: DatumClick) => void) | undefined,
  filter: ((click: DatumClick) => void) | undefined,
): DatumAction[] | undefined {
  return useMemo(() => widgetClickActions(link, follow, filter), [link, follow, filter]);
}
