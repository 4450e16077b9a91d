import { prettySize } from "@sightline/core";
import { useQuery } from "@tanstack/react-query";
import { Badge, Card, Skeleton, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { getSystemStatus, type SystemStatus } from "../../api/admin";
import { ErrorScreen } from "../../app/ErrorScreen";
import { SettingsFrame } from "../settings/SettingsFrame";
import { TimeAgo } from "./TimeAgo";
import styles from "./admin.module.css";

/** The status pages refresh every 60 s (spec 3 §9). */
export const STATUS_POLL_MS = 60_000;
export const NO_DATA = "No data";

function Block({ title, items }: { title: string; items: [string, ReactNode][] }) {
  return (
    <Card size="small" title={title} data-testid={`status-${title}`}>
      {items.length === 0 ? (
        <Typography.Text type="secondary">{NO_DATA}</Typography.Text>
      ) : (
        <ul className={styles.pairs}>
          {items.map(([name, value]) => (
            <li key={name}>
              <span>{name}</span>
              <span className={styles.value}>{value}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** status.json keeps Redash's metric names for scripts; the page names ours. */
const METRIC_LABELS: Record<string, string> = {
  "Redash DB Size": "Metadata DB Size",
  "Query Results in Metadata DB": "Results in Metadata DB",
  "Query Results in Object Storage": "Results in Object Storage",
};

/** Every top-level key besides manager and database_metrics, as key/value badges. */
export function generalItems(status: SystemStatus): [string, string][] {
  return Object.entries(status)
    .filter(
      ([key, value]) =>
        key !== "manager" &&
        key !== "database_metrics" &&
        (value === null || typeof value !== "object"),
    )
    .map(([key, value]) => [key.replace(/_/g, " "), String(value ?? "-")]);
}

const STORE_NAMES = {
  metadata_database: "Metadata DB",
  object_storage: "Object Storage",
} as const;

/** Where the stored results are (issue 30): count and size per store, and where new ones go. */
export function resultStorageItems(status: SystemStatus): [string, string][] {
  const storage = status.query_results_storage;
  if (!storage) return [];
  const items: [string, string][] = [];
  for (const key of ["metadata_database", "object_storage"] as const) {
    const store = storage[key];
    const name = STORE_NAMES[key];
    items.push([`${name} Results`, store.count.toLocaleString("en")]);
    items.push([`${name} Size`, prettySize(store.size)]);
    if (store.stored_size !== null)
      items.push([`${name} Compressed`, prettySize(store.stored_size)]);
  }
  items.push(["New Results Go To", STORE_NAMES[storage.new_results_in]]);
  return items;
}

/** The scheduler's heartbeat and its late schedules (issue 28), when the server reports them. */
export function schedulerHealthItems(
  manager: NonNullable<SystemStatus["manager"]>,
): [string, ReactNode][] {
  const items: [string, ReactNode][] = [];
  if (manager.heartbeat_at !== undefined) {
    const age = manager.heartbeat_age;
    // Three missed passes (30 s each) or more: the scheduler is not running.
    const stale = age === null || (typeof age === "number" && age > 120);
    items.push([
      "Scheduler Heartbeat",
      <Tag key="h" color={stale ? "error" : "success"} data-testid="scheduler-heartbeat">
        {age === null ? "never" : `${age}s ago`}
      </Tag>,
    ]);
  }
  if (manager.late_schedules_count !== undefined) {
    const late = manager.late_schedules_count ?? 0;
    items.push([
      "Late Schedules",
      <Tag key="l" color={late > 0 ? "warning" : "success"} data-testid="late-schedules">
        {String(late)}
      </Tag>,
    ]);
  }
  if (manager.failing_schedules_count !== undefined) {
    const failing = manager.failing_schedules_count ?? 0;
    items.push([
      "Failing Schedules",
      <Tag key="f" color={failing > 0 ? "error" : "success"} data-testid="failing-schedules">
        {String(failing)}
      </Tag>,
    ]);
  }
  return items;
}

function StatusBlocks({ status }: { status: SystemStatus }) {
  const manager = status.manager;
  const managerItems: [string, ReactNode][] = manager
    ? [
        ["Last Refresh", <TimeAgo key="r" date={manager.last_refresh_at ?? null} />],
        ["Started", <TimeAgo key="s" date={manager.started_at ?? null} />],
        ["Outdated Queries Count", String(manager.outdated_queries_count ?? 0)],
        ...schedulerHealthItems(manager),
      ]
    : [];
  const queues: [string, ReactNode][] = Object.entries(manager?.queues ?? {}).map(([name, q]) => [
    name,
    <Badge key={name} count={q.size} showZero color="blue" overflowCount={1e9} />,
  ]);
  const metrics: [string, ReactNode][] = (status.database_metrics?.metrics ?? []).map(
    ([name, bytes]) => [METRIC_LABELS[name] ?? name, prettySize(bytes)],
  );
  return (
    <div className={styles.grid}>
      <Block
        title="General"
        items={generalItems(status).map(([k, v]) => [
          k,
          <Tag key={k} color="geekblue">
            {v}
          </Tag>,
        ])}
      />
      <Block title="Manager" items={managerItems} />
      <Block title="Queues" items={queues} />
      <Block title="Database metrics" items={metrics} />
      {status.query_results_storage && (
        <Block title="Result storage" items={resultStorageItems(status)} />
      )}
    </div>
  );
}

/** /admin/status: System Status, for super admins. */
export default function SystemStatusPage() {
  return (
    <SettingsFrame title="System Status" area="admin" permission="super_admin">
      <StatusContent />
    </SettingsFrame>
  );
}

function StatusContent() {
  const status = useQuery({
    queryKey: ["admin", "status"],
    queryFn: getSystemStatus,
    refetchInterval: STATUS_POLL_MS,
    retry: false,
  });
  // A failure goes to the shared error handler.
  if (status.isError) return <ErrorScreen error={status.error} />;
  if (!status.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <StatusBlocks status={status.data} />;
}
