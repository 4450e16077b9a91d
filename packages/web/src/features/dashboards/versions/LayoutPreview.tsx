// A small drawing of a dashboard version's layout (issue 29): each widget a box at its place on
// the grid, named, text boxes dashed; boxes added, moved or resized since the version compared
// with are marked in the brand colour.
import { Typography } from "antd";
import type { DashboardWidget } from "../../../api/dashboards";
import { GRID_COLUMNS, ROW_HEIGHT } from "../gridLayout";
import { layoutBoxes, type BoxMark } from "./layoutBoxes";
import styles from "./LayoutPreview.module.css";

/** The grid's width the preview's proportions follow (a desktop dashboard's). */
const GRID_WIDTH_PX = 1200;

const MARK_WORDS: Record<Exclude<BoxMark, null>, string> = {
  added: "new",
  moved: "moved",
  resized: "resized",
};

interface LayoutPreviewProps {
  label: string;
  widgets: readonly DashboardWidget[];
  /** The version the boxes are marked against (none: nothing marked). */
  compared?: readonly DashboardWidget[] | null;
}

export function LayoutPreview({ label, widgets, compared }: LayoutPreviewProps) {
  const { boxes, rows } = layoutBoxes(widgets, compared);
  return (
    <figure className={styles.figure} data-testid="layout-preview">
      <figcaption>
        <Typography.Text strong>{label}</Typography.Text>
      </figcaption>
      {boxes.length === 0 ? (
        <div className={styles.empty}>
          <Typography.Text type="secondary">No widgets</Typography.Text>
        </div>
      ) : (
        <div
          className={styles.grid}
          style={{ aspectRatio: `${GRID_WIDTH_PX} / ${Math.max(rows * ROW_HEIGHT, 240)}` }}
          role="img"
          aria-label={`${label}: ${boxes.length} widgets on a ${GRID_COLUMNS}-column grid`}
        >
          {boxes.map((box) => (
            <div
              key={box.id}
              className={[
                styles.box,
                box.text ? styles.textBox : "",
                box.mark ? styles.marked : "",
              ].join(" ")}
              style={{
                left: `${box.left}%`,
                top: `${box.top}%`,
                width: `${box.width}%`,
                height: `${box.height}%`,
              }}
              title={box.mark ? `${box.label} (${MARK_WORDS[box.mark]})` : box.label}
              data-mark={box.mark ?? undefined}
            >
              <span className={styles.boxLabel}>{box.label}</span>
              {box.mark && <span className={styles.boxMark}>{MARK_WORDS[box.mark]}</span>}
            </div>
          ))}
        </div>
      )}
    </figure>
  );
}
