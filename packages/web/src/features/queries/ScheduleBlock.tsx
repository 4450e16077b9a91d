// "Refresh Schedule" with the query's schedule, in the editor's side panel and under the view:
// a link that opens the schedule dialog for those who may schedule a saved query.
import { Button, Typography } from "antd";
import type { Schedule } from "@sightline/core";
import { scheduleFullText } from "./display";
import styles from "./QueryPage.module.css";

interface ScheduleBlockProps {
  schedule: Schedule | null;
  /** Opens the schedule dialog; without it the schedule is plain text. */
  onEdit?: () => void;
}

export function ScheduleBlock({ schedule, onEdit }: ScheduleBlockProps) {
  return (
    <div className={styles.meta}>
      <Typography.Text type="secondary">Refresh Schedule</Typography.Text>
      <div>
        {onEdit ? (
          <Button
            type="link"
            size="small"
            className={styles.scheduleLink}
            onClick={onEdit}
            data-testid="schedule-button"
          >
            {scheduleFullText(schedule)}
          </Button>
        ) : (
          <span>{scheduleFullText(schedule)}</span>
        )}
      </div>
    </div>
  );
}
