// The active cross-filters as removable tags with "Clear all", in the filter bar above the
// dashboard grid (UI guide; DashboardFilterBar). Escape removes the latest filter.
import { FilterOutlined } from "@ant-design/icons";
import type { CrossFilter, CrossFilterValue } from "@sightline/core";
import { Button, Tag } from "antd";
import { useEffect } from "react";
import styles from "./CrossFilterBar.module.css";

/** Values shown in a tag before "+N more". */
const SHOWN_VALUES = 3;

export interface CrossFilterBarProps {
  filters: readonly CrossFilter[];
  onRemove: (column: string) => void;
  onClear: () => void;
  onRemoveLast: () => void;
}

export function crossFilterValueLabel(value: CrossFilterValue, filter: CrossFilter): string {
  if (value === null) return "null";
  if (value === "") return '""';
  // Stored datetimes are full ISO instants; show them to the minute (or second) in UTC.
  if (filter.type === "datetime" && typeof value === "string")
    return value.replace("T", " ").replace(/(:00)?\.000Z$/, "");
  return String(value);
}

export function crossFilterLabel(filter: CrossFilter): string {
  const shown = filter.values.slice(0, SHOWN_VALUES).map((v) => crossFilterValueLabel(v, filter));
  const more = filter.values.length - shown.length;
  return `${filter.column}: ${shown.join(", ")}${more > 0 ? ` +${more} more` : ""}`;
}

/** Escape belongs to whatever has focus first: fields and open dialogs keep it. */
export function escapeIsFree(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target;
  if (!(target instanceof Element)) return true;
  if (target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"))
    return false;
  return !target.closest("[role='dialog'], .ant-modal-wrap, .ant-drawer, .ant-select-dropdown");
}

export default function CrossFilterBar({
  filters,
  onRemove,
  onClear,
  onRemoveLast,
}: CrossFilterBarProps) {
  const active = filters.length > 0;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && escapeIsFree(event)) onRemoveLast();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [active, onRemoveLast]);

  if (!active) return null;
  return (
    <div className={styles.bar} role="group" aria-label="Cross-filters" data-testid="cross-filters">
      <FilterOutlined className={styles.icon} aria-hidden />
      {filters.map((filter) => {
        const label = crossFilterLabel(filter);
        return (
          <Tag
            key={filter.column}
            className={styles.tag}
            color="processing"
            closable={{ "aria-label": `Remove filter ${filter.column}` }}
            onClose={(event) => {
              // The tag disappears when the address changes, not on its own.
              event.preventDefault();
              onRemove(filter.column);
            }}
            title={label}
            data-testid="cross-filter-tag"
          >
            <span className={styles.label}>{label}</span>
          </Tag>
        );
      })}
      <Button type="link" size="small" onClick={onClear} data-testid="cross-filters-clear">
        Clear all
      </Button>
    </div>
  );
}
