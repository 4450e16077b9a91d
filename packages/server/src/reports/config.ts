// The report renderer's settings (SIGHTLINE_REPORT_*, SIGHTLINE_CHROMIUM), read with the rest of
// the configuration (config.ts): a bad value stops the start naming the variable.
import { ConfigError, int, optional, str, type Env } from "../configEnv";

export interface ReportsConfig {
  /** Browsers (reports rendered) at once in a worker; 0: this process renders none. */
  browsers: number;
  chromiumPath: string;
  /** The address the renderer's browser opens the print page at: this machine's server. */
  renderUrl: string;
  /** Time budget of one render (opening the page until the last image), seconds. */
  renderBudgetSeconds: number;
  /** Time budget of a report's queries, seconds. */
  queryBudgetSeconds: number;
  rendersPerBrowser: number;
  browserMemoryCapBytes: number;
}

export function reportsConfig(env: Env, port: number): ReportsConfig {
  const renderUrl = str(env, "SIGHTLINE_REPORT_RENDER_URL", `http://127.0.0.1:${port}`).replace(
    /\/+$/,
    "",
  );
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(renderUrl)) {
    throw new ConfigError(
      `SIGHTLINE_REPORT_RENDER_URL must be this machine's server (http://127.0.0.1:<port>), got "${renderUrl}"`,
    );
  }
  return {
    browsers: int(env, "SIGHTLINE_REPORT_BROWSERS", 1, 0, 16),
    chromiumPath: optional(env, "SIGHTLINE_CHROMIUM") ?? "/usr/bin/chromium",
    renderUrl,
    renderBudgetSeconds: int(env, "SIGHTLINE_REPORT_RENDER_TIMEOUT", 60, 5, 3600),
    queryBudgetSeconds: int(env, "SIGHTLINE_REPORT_QUERY_TIMEOUT", 600, 5, 86400),
    rendersPerBrowser: int(env, "SIGHTLINE_REPORT_RENDERS_PER_BROWSER", 25, 1, 10_000),
    browserMemoryCapBytes:
      int(env, "SIGHTLINE_REPORT_BROWSER_MEMORY_MB", 1024, 64, 65_536) * 1024 * 1024,
  };
}
