// Custom JavaScript charts run only when the host allows them, and then in a sandboxed iframe
// (scripts allowed, no same origin): the code never touches this page, its cookies or the API.
import { useEffect, useMemo, useRef } from "react";
import type { ChartSeries } from "./prepare";

/** Served with its own Content-Security-Policy (inline code allowed, no network). */
const FRAME_URL = "/sandbox/custom-chart.html";

export function CustomChart({
  code,
  series,
  enableConsoleLogs,
}: {
  code: string;
  series: ChartSeries[];
  enableConsoleLogs: boolean;
}) {
  const ref = useRef<HTMLIFrameElement>(null);
  const payload = useMemo(() => {
    const x: unknown[] = [];
    const ys: Record<string, unknown[]> = {};
    for (const s of series) {
      for (const p of s.points) x.push(p.x);
      ys[s.name] = s.points.map((p) => p.y);
    }
    return { code, x, ys, logs: enableConsoleLogs };
  }, [code, series, enableConsoleLogs]);

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    // The frame has an opaque origin, so "*" is the only target that reaches it.
    const send = () => frame.contentWindow?.postMessage(payload, "*");
    frame.addEventListener("load", send);
    send();
    return () => frame.removeEventListener("load", send);
  }, [payload]);

  return (
    <iframe
      ref={ref}
      title="Custom chart"
      sandbox="allow-scripts"
      src={FRAME_URL}
      style={{ width: "100%", height: "100%", minHeight: 300, border: 0 }}
    />
  );
}
