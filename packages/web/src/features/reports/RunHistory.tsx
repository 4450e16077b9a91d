// A subscription's report runs (issue 28): when, how it started, to whom, how long, a thumbnail
// of what was sent, the outcome, and what went wrong (error, widgets that did not finish).
import { Alert, Button, Image, Table, Tag, Typography } from "antd";
import type { TableProps } from "antd";
import { useState } from "react";
import { reportRunThumbnailUrl, type ReportRun } from "../../api/reports";
import { useSession } from "../../app/session";
import { formatDateTime } from "../queries/display";
import { RUN_STATUS, runDurationText, unfinishedWidgetsText } from "./subscriptionText";
import { useReportRuns } from "./useReports";
import styles from "./Subscriptions.module.css";

export const RUNS_PAGE_SIZE = 10;
export const NO_RUNS = "No report has been sent yet. Send now sends one at once.";

/** What went wrong in a run: its error and the widgets it could not draw. */
export function runProblems(run: ReportRun): string[] {
  const out: string[] = [];
  if (run.error) out.push(run.error);
  const widgets = unfinishedWidgetsText(run);
  if (widgets) out.push(`Widgets not drawn: ${widgets}`);
  return out;
}

export function RunHistory({
  subscriptionId,
  onBack,
}: {
  subscriptionId: number;
  onBack: () => void;
}) {
  const config = useSession().client_config;
  const [page, setPage] = useState(1);
  const runs = useReportRuns(subscriptionId, page, RUNS_PAGE_SIZE);
  const rows = runs.data?.results ?? [];

  const columns: TableProps<ReportRun>["columns"] = [
    {
      key: "when",
      title: "When",
      render: (_, run) => formatDateTime(run.started_at, config),
    },
    {
      key: "trigger",
      title: "Trigger",
      responsive: ["sm"],
      render: (_, run) => (run.trigger === "manual" ? "Send now" : "Schedule"),
    },
    {
      key: "to",
      title: "To",
      responsive: ["md"],
      render: (_, run) => (run.recipients.length ? run.recipients.join(", ") : "–"),
    },
    {
      key: "duration",
      title: "Took",
      align: "right",
      render: (_, run) => runDurationText(run.duration_ms),
    },
    {
      key: "thumbnail",
      title: "Picture",
      responsive: ["sm"],
      render: (_, run) =>
        run.has_thumbnail ? (
          <Image
            src={reportRunThumbnailUrl(run.id)}
            alt={`Report of ${formatDateTime(run.started_at, config)}`}
            className={styles.thumbnail}
            width={96}
            height={60}
            data-testid="run-thumbnail"
          />
        ) : (
          "–"
        ),
    },
    {
      key: "status",
      title: "Status",
      render: (_, run) => (
        <Tag color={RUN_STATUS[run.status].color} data-testid="run-status">
          {RUN_STATUS[run.status].label}
        </Tag>
      ),
    },
  ];

  const problemIds = rows.filter((r) => runProblems(r).length > 0).map((r) => r.id);
  return (
    <div data-testid="run-history">
      <div className={styles.toolbar}>
        <Button onClick={onBack}>Back to subscriptions</Button>
        <Button onClick={() => runs.refetch()} loading={runs.isFetching}>
          Reload
        </Button>
      </div>
      {runs.error ? (
        <Alert type="error" showIcon title={(runs.error as Error).message} />
      ) : (
        <Table<ReportRun>
          size="small"
          rowKey="id"
          loading={runs.isLoading}
          columns={columns}
          dataSource={rows}
          locale={{ emptyText: NO_RUNS }}
          pagination={{
            current: page,
            pageSize: RUNS_PAGE_SIZE,
            total: runs.data?.count ?? 0,
            onChange: setPage,
            hideOnSinglePage: true,
            showSizeChanger: false,
          }}
          expandable={{
            showExpandColumn: false,
            expandedRowKeys: problemIds,
            rowExpandable: (run) => runProblems(run).length > 0,
            expandedRowRender: (run) => (
              <div className={styles.runProblem} data-testid="run-problems">
                {runProblems(run).map((line) => (
                  <Typography.Paragraph key={line} type="danger" style={{ margin: 0 }}>
                    {line}
                  </Typography.Paragraph>
                ))}
              </div>
            ),
          }}
        />
      )}
    </div>
  );
}
