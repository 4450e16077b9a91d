// The dashboard's report subscriptions, one card each (issue 28): name, schedule in words,
// format, recipients, the last run's status; edit, send now (with its outcome), history, delete.
import { DeleteOutlined, EditOutlined, HistoryOutlined, SendOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Popconfirm, Tag } from "antd";
import type { ReportRun, ReportSubscription } from "../../api/reports";
import { isRunFinished } from "../../api/reports";
import type { Destination } from "../../api/destinations";
import { localTimeOf } from "../queries/display";
import {
  FORMAT_LABELS,
  RUN_STATUS,
  recipientsText,
  runOutcomeText,
  scheduleText,
  unfinishedWidgetsText,
} from "./subscriptionText";
import { useFollowedRun } from "./useReports";
import styles from "./Subscriptions.module.css";

export const DELETE_TITLE = "Delete this subscription?";

interface SubscriptionListProps {
  subscriptions: readonly ReportSubscription[];
  destinations: readonly Destination[];
  /** The run Send now started, by subscription. */
  sent: ReadonlyMap<number, ReportRun>;
  sending: number | null;
  onEdit: (subscription: ReportSubscription) => void;
  onSend: (subscription: ReportSubscription) => void;
  onHistory: (subscription: ReportSubscription) => void;
  onDelete: (subscription: ReportSubscription) => Promise<unknown>;
  onRunFinished: () => void;
}

export function SubscriptionList(props: SubscriptionListProps) {
  return (
    <div data-testid="subscription-list">
      {props.subscriptions.map((s) => (
        <Card key={s.id} size="small" className={styles.item} data-testid="subscription-item">
          <div className={styles.itemTitle}>
            <span data-testid="subscription-name">{s.name}</span>
            <Tag>{FORMAT_LABELS[s.format] ?? s.format}</Tag>
            {!s.active && <Tag color="default">Paused</Tag>}
            {s.last_run && (
              <Tag color={RUN_STATUS[s.last_run.status].color} data-testid="subscription-last-run">
                Last: {RUN_STATUS[s.last_run.status].label}
              </Tag>
            )}
          </div>
          <div className={styles.itemMeta}>
            <div data-testid="subscription-schedule">{scheduleText(s.schedule, localTimeOf)}</div>
            <div data-testid="subscription-recipients">
              To: {recipientsText(s.recipients, props.destinations)}
            </div>
          </div>
          <div className={styles.itemActions}>
            <Button
              size="small"
              type="primary"
              icon={<SendOutlined />}
              loading={props.sending === s.id}
              onClick={() => props.onSend(s)}
              data-testid="subscription-send"
            >
              Send now
            </Button>
            <Button size="small" icon={<EditOutlined />} onClick={() => props.onEdit(s)}>
              Edit
            </Button>
            <Button
              size="small"
              icon={<HistoryOutlined />}
              onClick={() => props.onHistory(s)}
              data-testid="subscription-history"
            >
              History
            </Button>
            <Popconfirm
              title={DELETE_TITLE}
              description={`"${s.name}" stops sending; its run history is deleted too.`}
              okText="Delete"
              okButtonProps={{ danger: true }}
              cancelText="Cancel"
              onConfirm={() => props.onDelete(s)}
            >
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${s.name}`}>
                Delete
              </Button>
            </Popconfirm>
          </div>
          {props.sent.get(s.id) && (
            <SendOutcome run={props.sent.get(s.id)!} onFinished={props.onRunFinished} />
          )}
        </Card>
      ))}
    </div>
  );
}

/** Send now's run, read again until it is over. */
function SendOutcome({ run, onFinished }: { run: ReportRun; onFinished: () => void }) {
  const followed = useFollowedRun(run, onFinished);
  const current = followed.data ?? run;
  const finished = isRunFinished(current);
  const widgets = finished ? unfinishedWidgetsText(current) : null;
  // Sent, but with widgets it could not draw: a warning, not a success.
  const type =
    current.status === "sent"
      ? widgets
        ? "warning"
        : "success"
      : current.status === "failed"
        ? "error"
        : current.status === "skipped"
          ? "warning"
          : "info";
  return (
    <Alert
      className={styles.outcome}
      type={type}
      showIcon
      data-testid="send-outcome"
      data-status={current.status}
      title={runOutcomeText(current)}
      description={
        followed.error
          ? `The run's progress could not be read: ${(followed.error as Error).message}`
          : widgets
            ? `Widgets not drawn: ${widgets}`
            : undefined
      }
    />
  );
}
