import {
  applyAutoLimit,
  findMissingParameters,
  missingParametersError,
  renderQueryText,
} from "@sightline/core";
import { HttpError } from "../http/errors";
import { getRunner } from "../runners/registry";

/**
 * Steps of the common execution pipeline (api-queries §4.6) shared by the execution routes:
 * refusals in Redash's `{"job": {"status": 4, "error"}}` shape, paused check, missing
 * parameters, auto-limit and max_age parsing.
 */

/** A refusal answered as exactly `{"job": {"status": 4, "error": ...}}` (see sendJobRefusal). */
export class JobRefusalError extends HttpError {
  constructor(
    statusCode: number,
    readonly error: string,
  ) {
    super(statusCode, error, { job: { status: 4, error } });
    this.name = "JobRefusalError";
  }
}

export const SELECT_DATA_SOURCE_MESSAGE = "Please select data source to run this query.";
export const NO_DATA_SOURCE_MESSAGE = "Target data source not available.";
export const NO_PERMISSION_MESSAGE =
  "You do not have permission to run queries with this data source.";

/** §4.6 step 2: a paused data source refuses to run. */
export function assertNotPaused(source: {
  name: string;
  paused: boolean | number;
  pause_reason: string | null;
}): void {
  if (source.paused !== true && source.paused !== 1) return;
  const reason = source.pause_reason ? ` (${source.pause_reason})` : "";
  throw new JobRefusalError(400, `${source.name} is paused${reason}. Please try later.`);
}

/** §4.6 steps 4–5: renders the values into the text; names without a value refuse the run. */
export function renderWithValues(
  text: string,
  values: Record<string, unknown>,
  schema: Parameters<typeof renderQueryText>[2] = [],
): string {
  let missing: string[];
  try {
    missing = findMissingParameters(text, values);
  } catch (error) {
    throw new HttpError(400, `The query text is not a valid template: ${(error as Error).message}`);
  }
  if (missing.length > 0) throw new JobRefusalError(400, missingParametersError(missing));
  try {
    return renderQueryText(text, values, schema);
  } catch (error) {
    throw new HttpError(400, `The query text is not a valid template: ${(error as Error).message}`);
  }
}

/** §6.3: SQL runners normalise statements and, when asked, append the auto limit. */
export function finalQueryText(sourceType: string, text: string, autoLimit: boolean): string {
  const runner = getRunner(sourceType);
  return runner?.supportsAutoLimit ? applyAutoLimit(text, autoLimit) : text;
}

/** max_age: absent or null → -1; an integer (or integer string) otherwise. */
export function parseMaxAge(raw: unknown): number {
  if (raw === undefined || raw === null || raw === "") return -1;
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n) || n < -1) {
    throw new HttpError(
      400,
      "max_age must be a whole number of seconds (0 = always run, -1 = any age).",
    );
  }
  return n;
}
