import { useMemo, useRef } from "react";
import { Notices } from "../components/Notice";
import { useElementSize } from "../components/useElementSize";
import type { RendererProps } from "../types";
import { counterView, getCounterOptions } from "./counter";

const TREND_COLORS = { positive: "#5cb85c", negative: "#d9534f" } as const;

export function CounterRenderer({ options, data, name }: RendererProps) {
  const view = useMemo(
    () => counterView(data, getCounterOptions(options), name),
    [data, options, name],
  );
  const ref = useRef<HTMLDivElement>(null);
  const { width, height } = useElementSize(ref);
  if (view.empty) return <Notices notices={view.notices} />;
  // The block scales to fit its box.
  const longest = Math.max(view.valueText.length, 3);
  const fontSize = Math.max(
    16,
    Math.min(96, (width || 300) / (longest * 0.65), (height || 200) / 2.2),
  );
  return (
    <div style={{ height: "100%", minHeight: 120, display: "flex", flexDirection: "column" }}>
      <Notices notices={view.notices} />
      <div
        ref={ref}
        style={{
          flex: 1,
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          textAlign: "center",
        }}
      >
        <div>
          <div
            title={view.tooltip}
            data-testid="counter-value"
            style={{
              fontSize,
              fontWeight: 600,
              lineHeight: 1.1,
              color: view.trend ? TREND_COLORS[view.trend] : undefined,
              fontVariantNumeric: "tabular-nums",
            }}
          >
            {view.valueText}
            {view.targetText !== null ? (
              <span style={{ fontSize: fontSize / 2, color: "#999", marginLeft: 8 }}>
                ({view.targetText})
              </span>
            ) : null}
          </div>
          <div style={{ fontSize: fontSize / 2, color: "#595959" }}>{view.label}</div>
        </div>
      </div>
    </div>
  );
}
