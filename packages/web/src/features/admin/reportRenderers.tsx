// The RQ Status page's Reports tab (issue 28): each worker's report renderers, their render
// times and their browsers' memory, as the worker last published them.
import type { ReportRenderer } from "../../api/admin";
import { TimeAgo } from "./TimeAgo";

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function seconds(ms: number | null): string {
  return ms === null ? "-" : `${(ms / 1000).toFixed(1)} s`;
}

export const reportRendererColumns = [
  { key: "name", title: "Worker", dataIndex: "name" },
  { key: "browsers", title: "Browsers", dataIndex: "browsers" },
  { key: "renders", title: "Reports Rendered", dataIndex: "renders" },
  {
    key: "last_render_ms",
    title: "Last Render",
    render: (_: unknown, r: ReportRenderer) => seconds(r.last_render_ms),
  },
  {
    key: "average_render_ms",
    title: "Average Render",
    render: (_: unknown, r: ReportRenderer) => seconds(r.average_render_ms),
  },
  {
    key: "browser_memory_bytes",
    title: "Browser Memory",
    render: (_: unknown, r: ReportRenderer) => megabytes(r.browser_memory_bytes),
  },
  {
    key: "peak_browser_memory_bytes",
    title: "Peak Browser Memory",
    render: (_: unknown, r: ReportRenderer) => megabytes(r.peak_browser_memory_bytes),
  },
  {
    key: "updated_at",
    title: "Updated",
    render: (_: unknown, r: ReportRenderer) => <TimeAgo date={r.updated_at} />,
  },
];
