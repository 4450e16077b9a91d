// The mark in a widget's header while cross-filters are set (issue 25; UI.md: each widget shows
// which active filters apply to it): "Filtered by country" or "Not filtered", the details in its
// tooltip. Signed-in and public pages alike.
import { FilterFilled, FilterOutlined } from "@ant-design/icons";
import { Tooltip } from "antd";
import { filterMarkText, filterReachLines, type FilterReach } from "./filterReach";
import styles from "./WidgetFilterMark.module.css";

export function WidgetFilterMark({ reach }: { reach: FilterReach }) {
  const text = filterMarkText(reach);
  const lines = filterReachLines(reach);
  const filtered = reach.applied.length > 0;
  return (
    <Tooltip
      title={
        <>
          {lines.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </>
      }
    >
      <span
        className={`${styles.mark} ${filtered ? styles.filtered : ""} no-drag`}
        // Focusable, so the details show from the keyboard (and on a tap).
        tabIndex={0}
        aria-label={lines.join(". ")}
        data-testid="widget-filter-mark"
        data-filtered={filtered}
      >
        {filtered ? <FilterFilled aria-hidden /> : <FilterOutlined aria-hidden />}
        <span className={styles.text}>{text}</span>
      </span>
    </Tooltip>
  );
}
