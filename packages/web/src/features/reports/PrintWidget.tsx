// One widget of the print view: the dashboard's card (same styles and visualizations) drawn from
// the result pinned to the report run, never a query run. Its wrapper says its state
// (data-report-state) and it reports that state to the page once it has settled.
import { ClockCircleOutlined, LockOutlined } from "@ant-design/icons";
import { Alert } from "antd";
import dayjs from "dayjs";
import { useEffect, useMemo, useRef, useState } from "react";
import type { DashboardWidget } from "../../api/dashboards";
import type { PrintWidgetResult } from "../../api/reports";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import { VisualizationRenderer } from "../../visualizations";
import { RESTRICTED_TEXT } from "../dashboards/DashboardWidget";
import { markdownHtml } from "../dashboards/markdown";
import widgetStyles from "../dashboards/DashboardWidget.module.css";
import { usePaintDetection } from "./paintDetection";
import { WIDGET_BUDGET_MS, type PrintWidgetState } from "./reportReadiness";
import styles from "./PrintReportPage.module.css";

export const NO_ROWS_TEXT = "No rows: the query returned no data for this report.";
export const NO_RESULT_TEXT = "No result was kept for this widget.";
export const DID_NOT_FINISH_TEXT = `Did not finish drawing within ${WIDGET_BUDGET_MS / 1000} seconds.`;

interface PrintWidgetProps {
  widget: DashboardWidget;
  name: string;
  result: PrintWidgetResult | undefined;
  onState: (widgetId: number, state: PrintWidgetState, error: string | null) => void;
}

/** What the widget shows before any drawing: a settled state already, or a result to draw. */
function initialOutcome(
  widget: DashboardWidget,
  result: PrintWidgetResult | undefined,
): { state: PrintWidgetState; error: string | null } {
  if (widget.restricted) return { state: "failed", error: RESTRICTED_TEXT };
  if (!widget.visualization) return { state: "pending", error: null };
  if (!result) return { state: "failed", error: NO_RESULT_TEXT };
  if ("error" in result) return { state: "failed", error: result.error || "Error" };
  if (!result.query_result?.data?.rows?.length) return { state: "empty", error: null };
  return { state: "pending", error: null };
}

export function PrintWidget({ widget, name, result, onState }: PrintWidgetProps) {
  const first = useMemo(() => initialOutcome(widget, result), [widget, result]);
  const [outOfTime, setOutOfTime] = useState(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const formats = useVisualizationFormats();
  const drawing = first.state === "pending" && !!widget.visualization;
  const canDraw = drawing && formats !== undefined;
  const paint = usePaintDetection(bodyRef, canDraw && !outOfTime);
  const textPainted = useTextPainted(first.state === "pending" && !widget.visualization);

  let state: PrintWidgetState = first.state;
  let error = first.error;
  if (drawing) {
    if (paint.kind === "painted") state = "painted";
    else if (paint.kind === "failed") [state, error] = ["failed", paint.error];
    else if (outOfTime) [state, error] = ["did_not_finish", DID_NOT_FINISH_TEXT];
  } else if (first.state === "pending") {
    state = textPainted ? "painted" : outOfTime ? "did_not_finish" : "pending";
  }

  useEffect(() => {
    if (state !== "pending") return;
    const timer = window.setTimeout(() => setOutOfTime(true), WIDGET_BUDGET_MS);
    return () => window.clearTimeout(timer);
  }, [state === "pending"]);
  useEffect(() => onState(widget.id, state, error), [state, error]);

  return (
    <div
      className={`${widgetStyles.card} ${styles.widget}`}
      data-testid="widget"
      data-report-widget={widget.id}
      data-report-state={state}
    >
      {widget.visualization ? (
        <>
          <div className={widgetStyles.header}>
            <div className={widgetStyles.title}>
              <span>{widget.visualization.query?.name ?? widget.visualization.name}</span>
              {widget.visualization.name && widget.visualization.name !== "Table" && (
                <span className={widgetStyles.subtitle}> – {widget.visualization.name}</span>
              )}
            </div>
          </div>
          <div className={widgetStyles.body} ref={bodyRef}>
            <WidgetBody
              widget={widget}
              result={result}
              state={state}
              error={error}
              formats={formats}
            />
          </div>
          <div className={widgetStyles.footer} data-testid="widget-footer">
            <span>{footerText(result)}</span>
          </div>
        </>
      ) : widget.restricted ? (
        <div className={widgetStyles.restricted}>
          <LockOutlined style={{ fontSize: 24 }} />
          <span>{RESTRICTED_TEXT}</span>
        </div>
      ) : (
        <TextBody text={widget.text ?? ""} name={name} />
      )}
    </div>
  );
}

function footerText(result: PrintWidgetResult | undefined): string {
  if (!result || !("query_result" in result) || !result.query_result) return "";
  return `Data retrieved ${dayjs(result.query_result.retrieved_at).format("YYYY-MM-DD HH:mm")}`;
}

function WidgetBody(props: {
  widget: DashboardWidget;
  result: PrintWidgetResult | undefined;
  state: PrintWidgetState;
  error: string | null;
  formats: ReturnType<typeof useVisualizationFormats>;
}) {
  const { widget, result, state, error } = props;
  const visualization = widget.visualization!;
  const spec = useMemo(
    () => ({
      id: visualization.id,
      type: visualization.type,
      name: visualization.name,
      options: visualization.options,
    }),
    [visualization],
  );
  if (state === "did_not_finish") {
    return (
      <div className={`${widgetStyles.center} ${styles.quiet}`} data-testid="widget-did-not-finish">
        <ClockCircleOutlined /> {DID_NOT_FINISH_TEXT}
      </div>
    );
  }
  if (state === "empty") {
    return (
      <div className={`${widgetStyles.center} ${styles.quiet}`} data-testid="widget-empty">
        {NO_ROWS_TEXT}
      </div>
    );
  }
  const pinned = result && "query_result" in result ? result.query_result : null;
  if (state === "failed" && !pinned) {
    return (
      <div className={widgetStyles.center}>
        <Alert className={widgetStyles.error} type="error" showIcon title={error ?? "Error"} />
      </div>
    );
  }
  // Drawn once the formats are known (pending until then; never a spinner of ours).
  if (!pinned || props.formats === undefined) return null;
  return (
    <VisualizationRenderer
      visualization={spec}
      data={pinned.data}
      context="widget"
      formats={props.formats}
      hideToolbox
    />
  );
}

/** A text box: drawn once its markdown is on the page. */
function TextBody({ text, name }: { text: string; name: string }) {
  const html = useMemo(() => markdownHtml(text), [text]);
  return (
    <div
      className={widgetStyles.text}
      aria-label={name}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** True on the frame after mount (the text is on screen). */
function useTextPainted(active: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!active) return;
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, [active]);
  return painted;
}
