import { QueryCancelledError, QueryTimeoutError, type RunContext } from "./types";

export interface QueryWatch {
  /** Aborts on cancel or on timeout; its reason is the error to report. */
  signal: AbortSignal;
  /** The cancel/timeout error if the query was stopped, else the given driver error. */
  explain(error: unknown): Error;
  dispose(): void;
}

/** Turns the caller's abort signal and the data source timeout into one signal. */
export function watchQuery(ctx: Pick<RunContext, "signal" | "timeoutMs">): QueryWatch {
  const controller = new AbortController();
  const onAbort = () => controller.abort(new QueryCancelledError());
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  const timeoutMs = ctx.timeoutMs;
  const timer =
    timeoutMs && timeoutMs > 0
      ? setTimeout(() => controller.abort(new QueryTimeoutError(timeoutMs)), timeoutMs)
      : null;
  return {
    signal: controller.signal,
    explain(error: unknown): Error {
      if (controller.signal.aborted) return controller.signal.reason as Error;
      return error instanceof Error ? error : new Error(String(error));
    },
    dispose() {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    },
  };
}
