// The query's last 50 runs in a side drawer: when, how long, rows, by whom, status, error.
import { useQuery } from "@tanstack/react-query";
import { Alert, Drawer, Grid, Table, Tag, Typography } from "antd";
import type { TableProps } from "antd";
import { listQueryRuns, type QueryRun, type RunStatus } from "../../../api/queryRuns";
import { useSession } from "../../../app/session";
import { formatDateTime } from "../display";

/** How many runs the drawer shows (the server keeps 200). */
export const RUN_HISTORY_SIZE = 50;

const STATUS: Record<RunStatus, { label: string; color: string }> = {
  success: { label: "Succeeded", color: "success" },
  failed: { label: "Failed", color: "error" },
  cancelled: { label: "Cancelled", color: "default" },
  timeout: { label: "Timed out", color: "warning" },
};

/** Seconds as "0.42 s", "12 s" or "3 min 5 s". */
export function durationText(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(2)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

export function runnerText(run: QueryRun): string {
  if (run.scheduled) return "Scheduler";
  return run.user?.name ?? "API";
}

interface RunHistoryDrawerProps {
  queryId: number;
  open: boolean;
  onClose: () => void;
}

export function RunHistoryDrawer({ queryId, open, onClose }: RunHistoryDrawerProps) {
  const config = useSession().client_config;
  const screens = Grid.useBreakpoint();
  const runs = useQuery({
    queryKey: ["queryRuns", queryId],
    queryFn: () => listQueryRuns(queryId, 1, RUN_HISTORY_SIZE),
    enabled: open,
    staleTime: 0,
  });

  const columns: TableProps<QueryRun>["columns"] = [
    {
      key: "started_at",
      title: "When",
      render: (_, run) => formatDateTime(run.started_at, config),
    },
    {
      key: "runtime",
      title: "Duration",
      align: "right",
      render: (_, run) => durationText(run.runtime),
    },
    {
      key: "rows",
      title: "Rows",
      align: "right",
      responsive: ["sm"],
      render: (_, run) => (run.rows === null ? "–" : run.rows.toLocaleString("en-US")),
    },
    { key: "by", title: "By", render: (_, run) => runnerText(run) },
    {
      key: "status",
      title: "Status",
      render: (_, run) => <Tag color={STATUS[run.status].color}>{STATUS[run.status].label}</Tag>,
    },
  ];

  return (
    <Drawer
      title="Run History"
      open={open}
      onClose={onClose}
      size={screens.md ? Math.min(720, window.innerWidth) : window.innerWidth}
      destroyOnHidden
    >
      {runs.error ? (
        <Alert type="error" showIcon title={(runs.error as Error).message} />
      ) : (
        <Table<QueryRun>
          data-testid="run-history"
          size="small"
          rowKey="id"
          loading={runs.isLoading}
          columns={columns}
          dataSource={runs.data?.results ?? []}
          pagination={false}
          locale={{ emptyText: "This query has not run yet." }}
          expandable={{
            rowExpandable: (run) => run.error !== null,
            expandedRowRender: (run) => (
              <Typography.Text type="danger" className="run-error">
                {run.error}
              </Typography.Text>
            ),
            defaultExpandAllRows: true,
            showExpandColumn: false,
            expandedRowKeys: (runs.data?.results ?? [])
              .filter((r) => r.error !== null)
              .map((r) => r.id),
          }}
        />
      )}
      {runs.data && runs.data.count > RUN_HISTORY_SIZE && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          The last {RUN_HISTORY_SIZE} of {runs.data.count} runs.
        </Typography.Paragraph>
      )}
    </Drawer>
  );
}
