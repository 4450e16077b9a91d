import { Alert } from "antd";
import { useMemo, useRef } from "react";
import { EChart, type EChartsClick } from "../components/EChart";
import { Notices } from "../components/Notice";
import { useElementSize } from "../components/useElementSize";
import type { RendererProps } from "../types";
import { CustomChart } from "./CustomChart";
import { buildChartOption } from "./echartsOption";
import { clickableOption } from "./clickable";
import { chartDatumClick, dimUnselected } from "./datumClick";
import { getChartOptions, readMapping } from "./options";
import { prepareChart } from "./prepare";
import { clickUrl } from "./text";

export function ChartRenderer({
  options: stored,
  data,
  formats,
  hideToolbox,
  onDatumClick,
  clickHint,
  selection,
}: RendererProps) {
  const options = useMemo(() => getChartOptions(stored, formats), [stored, formats]);
  const ref = useRef<HTMLDivElement>(null);
  const { width, height } = useElementSize(ref);
  const seps = useMemo(
    () => ({
      thousandsSeparator: formats.thousandsSeparator,
      decimalSeparator: formats.decimalSeparator,
    }),
    [formats],
  );
  const numberFormats = useMemo(
    () => ({ integerFormat: formats.integerFormat, floatFormat: formats.floatFormat }),
    [formats],
  );
  const isCustom = options.globalSeriesType === "custom" && formats.allowCustomJSVisualizations;
  const built = useMemo(() => {
    if (isCustom || width === 0) return null;
    return buildChartOption(data, options, {
      width,
      height,
      seps,
      hideToolbox: hideToolbox || formats.hidePlotlyModeBar,
      numberFormats,
    });
  }, [
    isCustom,
    data,
    options,
    width,
    height,
    seps,
    numberFormats,
    hideToolbox,
    formats.hidePlotlyModeBar,
  ]);
  const mapping = useMemo(() => readMapping(options), [options]);
  // The widget's own cross-filter selection: other values dimmed.
  // A chart with a click link opens it instead (Redash's enableLink).
  const linked = options.enableLink && !!options.linkFormat;
  const clickable = !!onDatumClick && !!mapping.x && !linked;
  const drawn = useMemo(() => {
    if (!built) return null;
    const dimmed = dimUnselected(built.option, built, selection, mapping.x);
    if (!clickable) return dimmed;
    return clickableOption(dimmed, clickHint, { categoryClicks: !!built.categoryPoint });
  }, [built, selection, mapping.x, clickable, clickHint]);
  const customSeries = useMemo(
    () => (isCustom ? prepareChart(data, options).series : []),
    [isCustom, data, options],
  );

  const onClick = (p: EChartsClick) => {
    if (!built) return;
    if (!linked) {
      const click = onDatumClick && chartDatumClick(built, p, mapping);
      if (click) onDatumClick?.(click);
      return;
    }
    const hit = built.pointAt(p.seriesIndex ?? -1, p.dataIndex ?? -1);
    if (!hit) return;
    const url = clickUrl(
      options.linkFormat,
      [{ x: hit.point.x, y: hit.point.y, row: hit.point.row }],
      options,
    );
    if (!/^(https?:|\/|\.|#|mailto:)/i.test(url.trim()) && /^[a-z]+:/i.test(url.trim())) return;
    if (options.linkOpenNewTab !== false) window.open(url, "_blank", "noopener,noreferrer");
    else window.location.href = url;
  };

  if (data.rows.length === 0) return null;
  return (
    <div style={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 300 }}>
      {options.globalSeriesType === "custom" && !formats.allowCustomJSVisualizations ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title="Custom JavaScript charts are turned off; showing the data as a default chart."
        />
      ) : null}
      <Notices notices={built?.notices ?? []} />
      <div ref={ref} style={{ flex: 1, minHeight: 260, position: "relative" }}>
        {isCustom ? (
          <CustomChart
            code={options.customCode ?? ""}
            series={customSeries}
            enableConsoleLogs={!!options.enableConsoleLogs}
          />
        ) : drawn && (drawn.series as unknown[]).length > 0 ? (
          <EChart option={drawn} onClick={onClick} style={{ position: "absolute", inset: 0 }} />
        ) : null}
      </div>
    </div>
  );
}
