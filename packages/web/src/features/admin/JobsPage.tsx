import { useQuery } from "@tanstack/react-query";
import { Alert, Badge, Card, Statistic, Tabs, Tag, type TableProps } from "antd";
import { useLocation, useNavigate } from "react-router";
import {
  getRqStatus,
  type RqDataSource,
  type RqJob,
  type RqQueue,
  type RqWorker,
  type ReportRenderer,
} from "../../api/admin";
import { reportRendererColumns } from "./reportRenderers";
import { SettingsFrame } from "../settings/SettingsFrame";
import { AdminTable } from "./AdminTable";
import { STATUS_POLL_MS } from "./SystemStatusPage";
import { TimeAgo } from "./TimeAgo";
import styles from "./admin.module.css";

export const QUERY_TASK = "redash.tasks.queries.execution.execute_query";
export const LOAD_FAILED = "Failed loading status. Please refresh.";
const TABS = ["queues", "data_sources", "workers", "reports", "queries", "other"] as const;
type Tab = (typeof TABS)[number];

export function tabFromHash(hash: string): Tab {
  const key = hash.replace(/^#/, "");
  return (TABS as readonly string[]).includes(key) ? (key as Tab) : "queues";
}

/** Started jobs of every queue, split into query executions and the rest. */
export function splitJobs(queues: readonly RqQueue[]): { queries: RqJob[]; other: RqJob[] } {
  const all = queues.flatMap((q) => q.started);
  return {
    queries: all.filter((j) => j.name === QUERY_TASK),
    other: all.filter((j) => j.name !== QUERY_TASK),
  };
}

const STATE_COLORS: Record<string, string> = {
  busy: "processing",
  idle: "default",
  started: "success",
  suspended: "warning",
};

const jobColumns = [
  { key: "id", title: "Job ID", dataIndex: "id" },
  { key: "name", title: "Name", dataIndex: "name" },
  { key: "origin", title: "Queue", dataIndex: "origin" },
  {
    key: "meta",
    title: "Query ID",
    render: (_: unknown, j: RqJob) => String(j.meta?.query_id ?? "-"),
  },
  {
    key: "started_at",
    title: "Started",
    render: (_: unknown, j: RqJob) => <TimeAgo date={j.started_at} />,
  },
  {
    key: "enqueued_at",
    title: "Enqueued",
    render: (_: unknown, j: RqJob) => <TimeAgo date={j.enqueued_at} />,
  },
];

const queueColumns = [
  { key: "name", title: "Name", dataIndex: "name" },
  { key: "started", title: "Started", render: (_: unknown, q: RqQueue) => q.started.length },
  { key: "queued", title: "Queued", dataIndex: "queued" },
];

const dataSourceColumns = [
  { key: "name", title: "Data Source", dataIndex: "name" },
  { key: "running", title: "Running", dataIndex: "running" },
  { key: "waiting", title: "Waiting", dataIndex: "waiting" },
  {
    key: "limit",
    title: "Limit",
    render: (_: unknown, d: RqDataSource) => (d.limit > 0 ? d.limit : "No limit"),
  },
];

const workerColumns = [
  {
    key: "state",
    title: "State",
    render: (_: unknown, w: RqWorker) => (
      <Badge status={(STATE_COLORS[w.state] ?? "default") as "default"} text={w.state} />
    ),
  },
  { key: "hostname", title: "Hostname", dataIndex: "hostname" },
  { key: "pid", title: "PID", dataIndex: "pid" },
  { key: "name", title: "Name", dataIndex: "name" },
  {
    key: "queues",
    title: "Queues",
    render: (_: unknown, w: RqWorker) =>
      w.queues.split(",").map((q) => <Tag key={q}>{q.trim()}</Tag>),
  },
  {
    key: "current_job",
    title: "Current Job",
    render: (_: unknown, w: RqWorker) => w.current_job ?? "-",
  },
  { key: "successful_jobs", title: "Successful Jobs", dataIndex: "successful_jobs" },
  { key: "failed_jobs", title: "Failed Jobs", dataIndex: "failed_jobs" },
  {
    key: "birth_date",
    title: "Birth Date",
    render: (_: unknown, w: RqWorker) => <TimeAgo date={w.birth_date} />,
  },
  { key: "total_working_time", title: "Total Working Time", dataIndex: "total_working_time" },
];

/** /admin/queries/jobs: RQ Status. */
export default function JobsPage() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const tab = tabFromHash(hash);
  const status = useQuery({
    queryKey: ["admin", "rq_status"],
    queryFn: getRqStatus,
    refetchInterval: STATUS_POLL_MS,
    retry: false,
  });
  const loading = status.isPending;
  const queues = Object.values(status.data?.queues ?? {});
  const { queries, other } = splitJobs(queues);
  const started = queries.length + other.length;
  const queued = queues.reduce((sum, q) => sum + q.queued, 0);
  // One tab a table; every table shows skeleton rows while the status loads.
  const tableTab = <T extends object>(
    key: Tab,
    label: string,
    table: Omit<TableProps<T>, "loading">,
  ) => ({
    key,
    label,
    children: <AdminTable<T> loading={loading} {...table} />,
  });
  const jobsTab = (key: Tab, label: string, jobs: RqJob[]) =>
    tableTab(key, label, {
      rowKey: "id",
      columns: jobColumns,
      dataSource: jobs,
      scroll: { x: 700 },
    });

  return (
    <SettingsFrame title="RQ Status" area="admin" permission="super_admin">
      {status.isError && (
        <Alert type="error" showIcon title={LOAD_FAILED} style={{ marginBottom: 16 }} />
      )}
      <div className={styles.counters}>
        <Card size="small">
          <Statistic title="Started Jobs" value={started} loading={loading} />
        </Card>
        <Card size="small">
          <Statistic title="Queued Jobs" value={queued} loading={loading} />
        </Card>
        <Card size="small">
          <Statistic
            title="Queued Reports"
            value={status.data?.reports?.queued ?? 0}
            loading={loading}
          />
        </Card>
      </div>
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={(key) => navigate({ hash: key }, { replace: true })}
          items={[
            tableTab("queues", "Queues", {
              rowKey: "name",
              columns: queueColumns,
              dataSource: queues,
              scroll: { x: 400 },
            }),
            tableTab("data_sources", "Data Sources", {
              rowKey: "id",
              columns: dataSourceColumns,
              dataSource: status.data?.data_sources ?? [],
              locale: { emptyText: "No data source is running or waiting for queries." },
              scroll: { x: 400 },
            }),
            tableTab("workers", "Workers", {
              rowKey: "name",
              columns: workerColumns,
              dataSource: status.data?.workers ?? [],
              scroll: { x: 900 },
            }),
            tableTab<ReportRenderer>("reports", "Reports", {
              rowKey: "name",
              columns: reportRendererColumns,
              dataSource: status.data?.reports?.workers ?? [],
              locale: { emptyText: "No report has been rendered yet." },
              scroll: { x: 800 },
            }),
            jobsTab("queries", "Queries", queries),
            jobsTab("other", "Other Jobs", other),
          ]}
        />
      </Card>
    </SettingsFrame>
  );
}
