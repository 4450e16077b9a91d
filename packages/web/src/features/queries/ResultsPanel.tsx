// The result area: one tab per visualization (Table first), runtime, rows and downloads.
import { DownloadOutlined, EditOutlined, PlusOutlined, SyncOutlined } from "@ant-design/icons";
import { Alert, Button, Dropdown, Tabs, Typography } from "antd";
import dayjs from "dayjs";
import { formatRuntime, relativeTime, type QueryResult, type Visualization } from "@sightline/core";
import { resultDownloadUrl, type DownloadFormat } from "../../api/queries";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import { VisualizationRenderer } from "../../visualizations";
import styles from "./QueryPage.module.css";
import panelStyles from "./ResultsPanel.module.css";
import { useNow } from "../admin/TimeAgo";
import { rowCountText, truncationMessage } from "./display";

const DEFAULT_TABLE = { type: "TABLE", name: "Table", options: {} };

interface ResultsPanelProps {
  queryId: number | null;
  result: QueryResult | null;
  visualizations: Visualization[];
  /** Selected tab: a visualization id, or "table" for the default Table. */
  selectedTab: string;
  onSelectTab: (key: string) => void;
  canExecute: boolean;
  onRefresh?: () => void;
  refreshing?: boolean;
  onAddVisualization?: () => void;
  onEditVisualization?: (visualization: Visualization) => void;
  /** When the shown result was retrieved: "Updated …" is kept current (spec 1 §9, 30 s). */
  retrievedAt?: Date;
  /** The read-only view offers downloads in its header instead. */
  showDownload?: boolean;
  /** The latest run failed: the result shown is the previous run's, and says so. */
  fromPreviousRun?: boolean;
}

export function DownloadMenu({
  queryId,
  resultId,
  apiKey,
  compact = false,
}: {
  queryId: number | null;
  resultId: number;
  apiKey?: string;
  /** Only the icon (with its name for screen readers), where room is short: a phone's header. */
  compact?: boolean;
}) {
  const item = (format: DownloadFormat, label: string) => ({
    key: format,
    label: (
      <a href={resultDownloadUrl(queryId, resultId, format, apiKey)} download>
        {label}
      </a>
    ),
  });
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: [
          item("csv", "Download as CSV File"),
          item("tsv", "Download as TSV File"),
          item("xlsx", "Download as Excel File"),
        ],
      }}
    >
      <Button
        icon={<DownloadOutlined />}
        aria-label={compact ? "Download" : undefined}
        title={compact ? "Download" : undefined}
        data-testid="download-menu"
      >
        {compact ? null : "Download"}
      </Button>
    </Dropdown>
  );
}

export function ResultsPanel(props: ResultsPanelProps) {
  const { result } = props;
  const formats = useVisualizationFormats();
  if (!result) {
    return (
      <div className={styles.noResult} data-testid="no-result">
        <Typography.Title level={5}>Query has no result</Typography.Title>
        <Typography.Text type="secondary">
          {props.canExecute
            ? "Execute/Refresh the query to show results."
            : "You do not have a permission to execute/refresh this query."}
        </Typography.Text>
      </div>
    );
  }
  const data = result.data;
  const truncation = truncationMessage(data);
  // One tab per visualization; a query without any (a new one) shows the default Table.
  const tabs =
    props.visualizations.length === 0
      ? [{ key: "table", spec: DEFAULT_TABLE, visualization: null as Visualization | null }]
      : props.visualizations.map((v) => ({ key: String(v.id), spec: v, visualization: v }));
  const selected = tabs.some((t) => t.key === props.selectedTab) ? props.selectedTab : tabs[0].key;
  const selectedVisualization = tabs.find((t) => t.key === selected)?.visualization;
  return (
    <div
      className={`${styles.results} ${props.fromPreviousRun ? panelStyles.previousRun : ""}`}
      data-testid="results"
    >
      {props.fromPreviousRun && (
        <Alert
          type="info"
          showIcon
          data-testid="previous-run-result"
          title={`The run failed: this is the result of the previous run${
            props.retrievedAt
              ? `, from ${dayjs(props.retrievedAt).format(formats?.dateTimeFormat)}`
              : ""
          }.`}
        />
      )}
      {truncation && (
        <Alert type="warning" showIcon title={truncation} data-testid="result-truncated" />
      )}
      {(data.log ?? []).length > 0 && (
        <pre className={styles.log} data-testid="result-log">
          {(data.log ?? []).join("\n")}
        </pre>
      )}
      <Tabs
        activeKey={selected}
        onChange={props.onSelectTab}
        size="small"
        className={styles.tabs}
        tabBarExtraContent={
          props.onAddVisualization && (
            <>
              {selectedVisualization && props.onEditVisualization && (
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={() => props.onEditVisualization?.(selectedVisualization)}
                  title="Edit Visualization"
                >
                  <span className={panelStyles.actionLabel}>Edit Visualization</span>
                </Button>
              )}
              <Button
                size="small"
                type="text"
                icon={<PlusOutlined />}
                onClick={props.onAddVisualization}
                title="Add Visualization"
              >
                <span className={panelStyles.actionLabel}>Add Visualization</span>
              </Button>
            </>
          )
        }
        items={tabs.map((tab) => ({
          key: tab.key,
          label: (
            <span
              onDoubleClick={() =>
                tab.visualization && props.onEditVisualization?.(tab.visualization)
              }
            >
              {tab.spec.name}
            </span>
          ),
          children: (
            <div className={styles.visualization}>
              <VisualizationRenderer
                visualization={{
                  id: tab.visualization?.id,
                  type: tab.spec.type,
                  name: tab.spec.name,
                  options: tab.spec.options,
                }}
                data={data}
                context="query"
                formats={formats}
              />
            </div>
          ),
        }))}
      />
      <div className={styles.resultFooter}>
        {props.onRefresh && (
          <Button
            icon={<SyncOutlined spin={props.refreshing} />}
            onClick={props.onRefresh}
            disabled={!props.canExecute || props.refreshing}
          >
            Refresh Now
          </Button>
        )}
        <span data-testid="result-rows">
          <strong>{rowCountText(data.rows.length)}</strong>
        </span>
        <span data-testid="result-runtime">{formatRuntime(result.runtime)}</span>
        {props.retrievedAt && <UpdatedAgo at={props.retrievedAt} />}
        <span className={styles.spacer} />
        {props.showDownload !== false && (
          <DownloadMenu queryId={props.queryId} resultId={result.id} />
        )}
      </div>
    </div>
  );
}

/** "Updated 5 minutes ago", renewed every 30 s without re-rendering the results. */
function UpdatedAgo({ at }: { at: Date }) {
  const now = useNow();
  return <span>Updated {relativeTime(at, now)}</span>;
}
