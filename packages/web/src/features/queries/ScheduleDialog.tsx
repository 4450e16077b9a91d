import { DatePicker, Form, Modal, Select, TimePicker, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { WEEKDAYS, durationHumanize, intervalSeconds, type Schedule } from "@sightline/core";
import { MINUTE_STEP, groupIntervals, localToUtc, utcToLocal, withInterval } from "./scheduleRules";

interface ScheduleDialogProps {
  schedule: Schedule | null;
  intervals: readonly number[];
  onSave: (schedule: Schedule | null) => void;
  onClose: () => void;
  /** The dialog's title and the interval's label; the query page's (the spec's) by default. */
  texts?: ScheduleDialogTexts;
}

export interface ScheduleDialogTexts {
  title: string;
  every: string;
}

export const REFRESH_SCHEDULE_TEXTS: ScheduleDialogTexts = {
  title: "Refresh Schedule",
  every: "Refresh every",
};

const GROUP_LABELS = { minute: "Minutes", hour: "Hours", day: "Days", week: "Weeks" } as const;

/** Refresh Schedule: interval, daily time (local, with its UTC equivalent), weekday, end date. */
export function ScheduleDialog({
  schedule,
  intervals,
  onSave,
  onClose,
  texts = REFRESH_SCHEDULE_TEXTS,
}: ScheduleDialogProps) {
  const [draft, setDraft] = useState<Schedule | null>(schedule);
  const seconds = intervalSeconds(draft);
  const offset = dayjs().utcOffset();
  const groups = groupIntervals(intervals);

  return (
    <Modal
      open
      title={texts.title}
      okText="OK"
      onOk={() => onSave(draft)}
      onCancel={onClose}
      width={500}
      data-testid="schedule-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={texts.every}>
          <Select
            aria-label={texts.every}
            data-testid="schedule-interval"
            showSearch
            optionFilterProp="label"
            value={seconds ?? 0}
            onChange={(value: number) => setDraft(withInterval(draft, value || null))}
            options={[
              { value: 0, label: "Never" },
              ...(Object.keys(groups) as (keyof typeof groups)[])
                .filter((g) => groups[g].length > 0)
                .map((g) => ({
                  label: GROUP_LABELS[g],
                  options: groups[g].map((s) => ({ value: s, label: durationHumanize(s) })),
                })),
            ]}
          />
        </Form.Item>
        {draft?.time && (
          <Form.Item
            label="On time"
            extra={<Typography.Text type="secondary">UTC {draft.time}</Typography.Text>}
          >
            <TimePicker
              aria-label="On time"
              format="HH:mm"
              minuteStep={MINUTE_STEP}
              allowClear={false}
              value={dayjs(utcToLocal(draft.time, offset), "HH:mm")}
              onChange={(t) =>
                t && setDraft({ ...draft, time: localToUtc(t.format("HH:mm"), offset) })
              }
            />
          </Form.Item>
        )}
        {draft?.day_of_week && (
          <Form.Item label="On day">
            <Select
              aria-label="On day"
              value={draft.day_of_week}
              options={WEEKDAYS.map((d) => ({ value: d, label: d }))}
              onChange={(day_of_week: string) => setDraft({ ...draft, day_of_week })}
            />
          </Form.Item>
        )}
        {draft && (
          <Form.Item label="Ends">
            <DatePicker
              aria-label="Ends"
              placeholder="Never"
              value={draft.until ? dayjs(draft.until) : null}
              onChange={(d) => setDraft({ ...draft, until: d ? d.format("YYYY-MM-DD") : null })}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
