/**
 * Caps on stored results, on by default (set by SIGHTLINE_RESULT_* in config.ts). The export cap bounds what is stored (and downloaded);
 * the display cap bounds the rows the `query_result` JSON sends to the web app.
 */
export interface ResultLimits {
  /** Rows stored per result; beyond it the result is cut and marked truncated. */
  maxRows: number;
  /** Rows sent by GET /api/query_results/<id> (no extension) and the execution routes. */
  displayRows: number;
  /** Size of the result as Redash JSON; a larger result fails the run. */
  maxBytes: number;
  /** Rows per stored chunk. */
  rowsPerChunk: number;
}

export const DEFAULT_RESULT_LIMITS: ResultLimits = {
  maxRows: 1_000_000,
  displayRows: 100_000,
  maxBytes: 1024 * 1024 * 1024,
  rowsPerChunk: 5000,
};

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
