// What changed from one version of a dashboard to the next, in words (issue 29): title, tags,
// the dashboard filters setting, other settings, and each widget (added, removed, moved,
// resized, a text box edited, its parameters, its options). Widgets are matched by id.
import type { DashboardDetail, DashboardWidget, WidgetPosition } from "../../../api/dashboards";
import {
  plainText,
  plural,
  quotedList,
  sameValue,
  shortText,
  type ChangeItem,
} from "../../versionHistory/changeWords";
import { widgetPositions } from "../widgetSize";

export type DashboardVersionFields = Pick<DashboardDetail, "name" | "widgets"> &
  Partial<Pick<DashboardDetail, "tags" | "dashboard_filters_enabled" | "options" | "is_draft">>;

/** How a widget is named in sentences: its query (and visualization), or its text. */
export function widgetLabel(widget: Pick<DashboardWidget, "visualization" | "text">): string {
  const v = widget.visualization;
  if (!v) {
    const text = shortText(plainText(widget.text ?? ""), 30);
    return text ? `Text box "${text}"` : "Text box";
  }
  const query = v.query?.name;
  if (!query) return `"${v.name}"`;
  return v.name && v.name !== "Table" ? `"${query}: ${v.name}"` : `"${query}"`;
}

const isText = (w: DashboardWidget) => !w.visualization;

/** The widget options other than its place and parameters (visualization settings etc.). */
function otherOptions(widget: DashboardWidget): Record<string, unknown> {
  const { position: _p, parameterMappings: _m, paramOrder: _o, ...rest } = widget.options;
  return rest;
}

/** The changes from `before` to `after`; a first version (no `before`) is "created". */
export function dashboardChanges(
  before: DashboardVersionFields | null,
  after: DashboardVersionFields,
): ChangeItem[] {
  if (!before) return [{ kind: "dashboard", verb: "created", detail: "Dashboard created" }];
  const out: ChangeItem[] = [];
  if (before.name !== after.name) {
    out.push({
      kind: "title",
      verb: "changed",
      detail: `Title changed from "${before.name}" to "${after.name}"`,
    });
  }
  if (before.tags && after.tags) {
    const added = after.tags.filter((t) => !before.tags!.includes(t));
    const removed = before.tags.filter((t) => !after.tags!.includes(t));
    if (added.length || removed.length) {
      const parts = [
        added.length ? `added ${quotedList(added)}` : "",
        removed.length ? `removed ${quotedList(removed)}` : "",
      ].filter(Boolean);
      out.push({ kind: "tags", verb: "changed", detail: `Tags: ${parts.join("; ")}` });
    }
  }
  if (
    before.dashboard_filters_enabled !== undefined &&
    after.dashboard_filters_enabled !== undefined &&
    before.dashboard_filters_enabled !== after.dashboard_filters_enabled
  ) {
    out.push({
      kind: "dashboard filters",
      verb: after.dashboard_filters_enabled ? "turned on" : "turned off",
      detail: `Dashboard level filters turned ${after.dashboard_filters_enabled ? "on" : "off"}`,
    });
  }
  if (
    before.is_draft !== undefined &&
    after.is_draft !== undefined &&
    before.is_draft !== after.is_draft
  ) {
    out.push(
      after.is_draft
        ? { kind: "dashboard", verb: "unpublished", detail: "Unpublished" }
        : { kind: "dashboard", verb: "published", detail: "Published" },
    );
  }
  if (before.options && after.options) {
    const { globalParamOrder: order0, ...rest0 } = before.options;
    const { globalParamOrder: order1, ...rest1 } = after.options;
    if (!sameValue(order0, order1)) {
      out.push({ kind: "parameters", verb: "reordered", detail: "Dashboard parameters reordered" });
    }
    if (!sameValue(rest0, rest1)) {
      out.push({ kind: "settings", verb: "changed", detail: "Dashboard settings changed" });
    }
  }
  out.push(...widgetChanges(before.widgets ?? [], after.widgets ?? []));
  return out;
}

export function widgetChanges(
  before: readonly DashboardWidget[],
  after: readonly DashboardWidget[],
): ChangeItem[] {
  const out: ChangeItem[] = [];
  const oldPositions = widgetPositions(before);
  const newPositions = widgetPositions(after);
  const old = new Map(before.map((w) => [w.id, w]));
  const now = new Set(after.map((w) => w.id));
  const widgetItem = (w: DashboardWidget, verb: string, detail: string): ChangeItem =>
    isText(w)
      ? { kind: "text box", noun: "text box", verb, detail }
      : { kind: "widget", noun: "widget", verb, detail };

  for (const w of after) {
    const was = old.get(w.id);
    const label = widgetLabel(w);
    if (!was) {
      out.push(widgetItem(w, "added", `${label} added`));
      continue;
    }
    const p0 = oldPositions.get(w.id)!;
    const p1 = newPositions.get(w.id)!;
    if (p0.col !== p1.col || p0.row !== p1.row) {
      out.push(widgetItem(w, "moved", `${label} moved ${moveWords(p0, p1)}`));
    }
    if (p0.sizeX !== p1.sizeX || p0.sizeY !== p1.sizeY) {
      out.push(
        widgetItem(
          w,
          "resized",
          `${label} resized from ${p0.sizeX}×${p0.sizeY} to ${p1.sizeX}×${p1.sizeY}`,
        ),
      );
    }
    if (isText(w) && (was.text ?? "") !== (w.text ?? "")) {
      out.push(widgetItem(w, "edited", `${widgetLabel(was)} edited`));
    }
    if (
      !sameValue(was.options.parameterMappings ?? {}, w.options.parameterMappings ?? {}) ||
      !sameValue(was.options.paramOrder ?? null, w.options.paramOrder ?? null)
    ) {
      out.push({
        kind: "widget parameters",
        verb: "changed",
        detail: `Parameters of ${label} changed`,
      });
    }
    if (!sameValue(otherOptions(was), otherOptions(w))) {
      out.push(widgetItem(w, "changed", `${label} settings changed`));
    }
  }
  for (const w of before) {
    if (!now.has(w.id)) out.push(widgetItem(w, "removed", `${widgetLabel(w)} removed`));
  }
  return out;
}

/** "down 3 rows", "left 2 columns and up 1 row" */
function moveWords(from: WidgetPosition, to: WidgetPosition): string {
  const parts: string[] = [];
  const steps = plural;
  if (to.col !== from.col) {
    const d = to.col - from.col;
    parts.push(`${d > 0 ? "right" : "left"} ${steps(Math.abs(d), "column")}`);
  }
  if (to.row !== from.row) {
    const d = to.row - from.row;
    parts.push(`${d > 0 ? "down" : "up"} ${steps(Math.abs(d), "row")}`);
  }
  return parts.join(" and ");
}
