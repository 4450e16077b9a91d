// /reports/print/{runId}?token=T (issue 28): the page the report renderer's headless browser
// photographs. Outside the signed-in frame, a fixed width, the light look and no motion; the
// dashboard's own cards drawn from the results pinned to the run (print_data), nothing else.
import { useQuery } from "@tanstack/react-query";
import { Alert, ConfigProvider, Typography } from "antd";
import { useCallback, useEffect, useMemo } from "react";
import { useParams, useSearchParams } from "react-router";
import { getPrintData, type PrintData } from "../../api/reports";
import { isApiError } from "../../api/errors";
import { theme } from "../../app/theme";
import { usePageTitle } from "../../components/usePageTitle";
import { SignedInLinksContext } from "../../visualizations";
import { DashboardGrid } from "../dashboards/DashboardGrid";
import type { DashboardWidget } from "../../api/dashboards";
import { widgetPositions } from "../dashboards/widgetSize";
import { PrintWidget } from "./PrintWidget";
import { dataTimeLine, parametersLine, reportWidgetName } from "./printText";
import { announceReady, useReportReadiness } from "./reportReadiness";
import styles from "./PrintReportPage.module.css";

export const PRINT_WIDTH = 1200;
export const PRINT_REFUSED = "This report's link has expired or is not valid.";
export const PRINT_FAILED = "This report could not be drawn.";

/** The light theme without motion: nothing in the picture is caught mid-animation. */
const printTheme = { ...theme, token: { ...theme.token, motion: false } };
const ignore = () => {};

/** Why print_data failed, in words the report's reader understands. */
export function printErrorText(error: unknown): string {
  if (isApiError(error) && [401, 403, 404].includes(error.status)) return PRINT_REFUSED;
  return `${PRINT_FAILED} ${error instanceof Error ? error.message : ""}`.trim();
}

export default function PrintReportPage() {
  const { runId = "" } = useParams();
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  const data = useQuery({
    queryKey: ["report-print-data", runId, token],
    queryFn: () => getPrintData(runId, token),
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const width = data.data?.width || PRINT_WIDTH;
  return (
    <ConfigProvider theme={printTheme}>
      <div className={styles.page} style={{ width }} data-testid="report-print">
        {data.isError ? (
          <PrintError error={data.error} />
        ) : data.data ? (
          <SignedInLinksContext value={false}>
            <PrintReport data={data.data} />
          </SignedInLinksContext>
        ) : (
          <div className={styles.preparing}>Preparing the report…</div>
        )}
      </div>
    </ConfigProvider>
  );
}

function PrintError({ error }: { error: unknown }) {
  usePageTitle("Report");
  // Nothing more will come: the picture may be taken, of this message.
  useEffect(() => announceReady([]), []);
  return (
    <Alert
      type="error"
      showIcon
      title={printErrorText(error)}
      description={isApiError(error) && error.status === 403 ? error.message : undefined}
      data-testid="report-print-error"
    />
  );
}

function PrintReport({ data }: { data: PrintData }) {
  const { dashboard } = data;
  usePageTitle(dashboard.name);
  const widgets = useMemo(
    () => (dashboard.widgets ?? []).filter((w) => !w.options.isHidden),
    [dashboard.widgets],
  );
  const order = useMemo(
    () => widgets.map((w) => ({ id: w.id, name: reportWidgetName(w) })),
    [widgets],
  );
  const names = useMemo(() => new Map(order.map((o) => [o.id, o.name])), [order]);
  const positions = useMemo(() => widgetPositions(widgets), [widgets]);
  const { report } = useReportReadiness(order);
  const renderWidget = useCallback(
    (widget: DashboardWidget) => (
      <PrintWidget
        widget={widget}
        name={names.get(widget.id) ?? ""}
        result={data.results[String(widget.id)]}
        onState={report}
      />
    ),
    [names, data.results, report],
  );
  const parameters = parametersLine(data.parameters);
  const dataTime = dataTimeLine(data.results);

  return (
    <>
      <header className={styles.header}>
        <Typography.Title level={3} className={styles.title} data-testid="dashboard-title">
          {dashboard.name}
        </Typography.Title>
        {parameters && (
          <div className={styles.meta} data-testid="report-parameters">
            {parameters}
          </div>
        )}
        {dataTime && (
          <div className={styles.meta} data-testid="report-data-time">
            {dataTime}
          </div>
        )}
      </header>
      {widgets.length === 0 ? (
        <div className={styles.preparing}>This dashboard has no widgets.</div>
      ) : (
        <DashboardGrid
          widgets={widgets}
          positions={positions}
          editing={false}
          onPositionsChange={ignore}
          renderWidget={renderWidget}
        />
      )}
    </>
  );
}
