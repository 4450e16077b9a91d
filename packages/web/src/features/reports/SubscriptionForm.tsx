// Create or edit one report subscription (issue 28): name, schedule (the queries' schedule
// dialog), format, recipients (e-mail addresses and alert destinations), the parameter values the
// report uses, and its options. Checks run on Save, then live; the server's refusal shows above
// the buttons.
import { ClockCircleOutlined } from "@ant-design/icons";
import {
  Alert,
  Button,
  Checkbox,
  Form,
  Grid,
  Input,
  Radio,
  Select,
  Space,
  Switch,
  Tag,
} from "antd";
import { useMemo, useState } from "react";
import type { Schedule } from "@sightline/core";
import { REPORT_FORMATS, type ReportSchedule } from "../../api/reports";
import { useSession } from "../../app/session";
import type { DashboardParameter } from "../../lib/parameterMappings";
import { ParameterInput } from "../queries/ParameterInput";
import { ScheduleDialog, type ScheduleDialogTexts } from "../queries/ScheduleDialog";
import { localTimeOf } from "../queries/display";
import {
  isEmailAddress,
  splitEmails,
  validateSubscription,
  type SubscriptionFormValues,
} from "./subscriptionForm";
import { reportDestinationChoices } from "./reportDestinations";
import { FORMAT_LABELS, scheduleText } from "./subscriptionText";
import { useReportDestinations } from "./useReports";
import styles from "./Subscriptions.module.css";

interface SubscriptionFormProps {
  initial: SubscriptionFormValues;
  parameters: readonly DashboardParameter[];
  saving: boolean;
  /** The server's refusal of the last save, if any. */
  saveError: string | null;
  onSave: (values: SubscriptionFormValues) => void;
  onCancel: () => void;
  /** A single visualization's report (one result, not a dashboard's widgets). */
  single?: boolean;
}

/** The queries' schedule dialog, worded for a report. */
export const REPORT_SCHEDULE_TEXTS: ScheduleDialogTexts = {
  title: "Report Schedule",
  every: "Send every",
};

const toReportSchedule = (s: Schedule | null): ReportSchedule | null =>
  s && s.interval
    ? {
        interval: Number(s.interval),
        time: s.time ?? null,
        day_of_week: s.day_of_week ?? null,
        until: s.until ?? null,
      }
    : null;

export function SubscriptionForm(props: SubscriptionFormProps) {
  const session = useSession();
  // Phones: plain radios that wrap cleanly instead of a button bar broken across lines.
  const wide = Grid.useBreakpoint().sm !== false;
  const [values, setValues] = useState(props.initial);
  const [checked, setChecked] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const destinations = useReportDestinations(true);
  const errors = useMemo(() => (checked ? validateSubscription(values) : {}), [checked, values]);
  const set = (change: Partial<SubscriptionFormValues>) => setValues((v) => ({ ...v, ...change }));

  const submit = () => {
    setChecked(true);
    if (Object.keys(validateSubscription(values)).length === 0) props.onSave(values);
  };

  return (
    <Form
      layout="vertical"
      className={styles.form}
      data-testid="subscription-form"
      onFinish={submit}
    >
      <Form.Item
        label="Name"
        required
        validateStatus={errors.name ? "error" : undefined}
        help={errors.name}
      >
        <Input
          aria-label="Name"
          value={values.name}
          maxLength={300}
          onChange={(e) => set({ name: e.target.value })}
        />
      </Form.Item>
      <Form.Item label="Schedule">
        <Space wrap>
          <span data-testid="subscription-schedule-text">
            {scheduleText(values.schedule, localTimeOf)}
          </span>
          <Button
            size="small"
            icon={<ClockCircleOutlined />}
            onClick={() => setScheduling(true)}
            data-testid="subscription-schedule-edit"
          >
            Change
          </Button>
        </Space>
      </Form.Item>
      <Form.Item label="Format">
        <Radio.Group
          aria-label="Format"
          optionType={wide ? "button" : "default"}
          value={values.format}
          onChange={(e) => set({ format: e.target.value })}
          options={REPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
          className={styles.formats}
        />
      </Form.Item>
      <Form.Item
        label="E-mail addresses"
        validateStatus={errors.emails || errors.recipients ? "error" : undefined}
        help={errors.emails ?? errors.recipients}
      >
        <Select
          mode="tags"
          aria-label="E-mail addresses"
          data-testid="subscription-emails"
          placeholder="name@example.com"
          open={false}
          suffixIcon={null}
          tokenSeparators={[",", ";", " "]}
          value={values.emails}
          onChange={(next: string[]) => set({ emails: splitEmails(next) })}
          tagRender={({ value, label, closable, onClose }) => (
            <Tag
              color={isEmailAddress(String(value)) ? undefined : "error"}
              closable={closable}
              onClose={onClose}
              onMouseDown={(e) => e.stopPropagation()}
              className={styles.emailTag}
            >
              {label}
            </Tag>
          )}
        />
      </Form.Item>
      <Form.Item
        label="Alert destinations"
        help={destinations.isError ? "The alert destinations could not be listed." : undefined}
      >
        <Select
          mode="multiple"
          aria-label="Alert destinations"
          data-testid="subscription-destinations"
          placeholder="None"
          loading={destinations.isLoading}
          value={values.destination_ids}
          onChange={(ids: number[]) => set({ destination_ids: ids })}
          optionFilterProp="label"
          options={reportDestinationChoices(destinations.data ?? [], values.destination_ids).map(
            (d) => ({
              value: d.id,
              label: `${d.name} (${d.type})`,
            }),
          )}
        />
      </Form.Item>
      {props.parameters.length > 0 && (
        <Form.Item label="Parameter values">
          <div className={styles.parameters} data-testid="subscription-parameters">
            {props.parameters.map((def) => (
              <label key={def.name} className={styles.parameter}>
                <span className={styles.parameterName}>{def.title || def.name}</span>
                <ParameterInput
                  def={def}
                  value={values.parameters[def.name]}
                  parentQueryId={def.parentQueryId}
                  onChange={(value) =>
                    set({ parameters: { ...values.parameters, [def.name]: value } })
                  }
                />
              </label>
            ))}
          </div>
        </Form.Item>
      )}
      <Form.Item label="Options" className={styles.options}>
        <Checkbox
          checked={values.skip_if_empty}
          onChange={(e) => set({ skip_if_empty: e.target.checked })}
        >
          {props.single ? "Skip when the result is empty" : "Skip when every widget is empty"}
        </Checkbox>
        <Checkbox
          checked={values.only_if_changed}
          onChange={(e) => set({ only_if_changed: e.target.checked })}
        >
          Send only when the numbers changed
        </Checkbox>
        <label className={styles.active}>
          <Switch
            size="small"
            checked={values.active}
            onChange={(active) => set({ active })}
            aria-label="Active"
          />{" "}
          Active (scheduled sends on)
        </label>
      </Form.Item>
      {props.saveError && (
        <Alert type="error" showIcon title={props.saveError} className={styles.saveError} />
      )}
      <div className={styles.formButtons}>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={props.saving}
          data-testid="subscription-save"
        >
          Save
        </Button>
      </div>
      {scheduling && (
        <ScheduleDialog
          schedule={values.schedule}
          texts={REPORT_SCHEDULE_TEXTS}
          intervals={session.client_config.queryRefreshIntervals ?? []}
          onClose={() => setScheduling(false)}
          onSave={(schedule) => {
            setScheduling(false);
            set({ schedule: toReportSchedule(schedule) });
          }}
        />
      )}
    </Form>
  );
}
