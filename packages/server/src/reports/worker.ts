// The render queue's worker: `browsers` loops, each with its own renderer (browser), taking
// queued report runs from the metadata store. Its render times and browser memory are written to
// server_state for the status pages, whichever process they are served from.
import os from "node:os";
import { readState, writeState } from "../execution/serverState";
import { MetadataUnavailableError } from "../store/outage";
import { onReportQueued } from "./queue";
import { ReportRenderer, type RendererStats } from "./renderer";
import { runReport, type RunDeps } from "./runReport";
import { claimRun } from "./store";

const IDLE_POLL_MS = 2_000;
export const REPORT_WORKERS_KEY = "report_workers";

export interface ReportWorkerStatus {
  name: string;
  browsers: number;
  renders: number;
  last_render_ms: number | null;
  average_render_ms: number | null;
  browser_memory_bytes: number;
  peak_browser_memory_bytes: number;
  updated_at: string;
}

export class ReportWorker {
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly renderers: ReportRenderer[] = [];
  private readonly wakers = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private readonly name = `${os.hostname()}:${process.pid}`;

  constructor(private readonly deps: Omit<RunDeps, "renderer">) {
    this.unsubscribe = onReportQueued(() => this.wakeAll());
  }

  start(): void {
    const { reports } = this.deps.config;
    for (let i = 0; i < reports.browsers; i++) {
      const renderer = new ReportRenderer({
        chromiumPath: reports.chromiumPath,
        rendersPerBrowser: reports.rendersPerBrowser,
        memoryCapBytes: reports.browserMemoryCapBytes,
      });
      this.renderers.push(renderer);
      this.loops.push(this.loop(renderer));
    }
  }

  private async idle(): Promise<void> {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, IDLE_POLL_MS);
      this.wakers.add(done);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  private async loop(renderer: ReportRenderer): Promise<void> {
    const { reports } = this.deps.config;
    const staleMs = (reports.queryBudgetSeconds + reports.renderBudgetSeconds + 120) * 1000;
    while (!this.stopped) {
      try {
        const run = await claimRun(this.deps.db, staleMs);
        if (!run) {
          await this.idle();
          continue;
        }
        await runReport({ ...this.deps, renderer }, run);
        await this.publish();
      } catch (error) {
        // An outage of the metadata database is waited out (the pool reconnects).
        if (error instanceof MetadataUnavailableError) {
          this.deps.log.warn({ err: error.message }, "report worker waits: metadata unavailable");
        } else {
          this.deps.log.error({ err: error }, "report worker pass failed");
        }
        await this.idle();
      }
    }
  }

  /** The renderers' figures, summed, for the status pages. */
  status(): ReportWorkerStatus {
    const all: RendererStats[] = this.renderers.map((r) => r.getStats());
    const renders = all.reduce((n, s) => n + s.renders, 0);
    const total = all.reduce((n, s) => n + s.totalRenderMs, 0);
    const last = all.map((s) => s.lastRenderMs).filter((ms): ms is number => ms !== null);
    return {
      name: this.name,
      browsers: this.renderers.length,
      renders,
      last_render_ms: last.length > 0 ? last[last.length - 1]! : null,
      average_render_ms: renders > 0 ? Math.round(total / renders) : null,
      browser_memory_bytes: all.reduce((n, s) => n + s.browserMemoryBytes, 0),
      peak_browser_memory_bytes: all.reduce((n, s) => n + s.peakBrowserMemoryBytes, 0),
      updated_at: new Date().toISOString(),
    };
  }

  private async publish(): Promise<void> {
    const all = await readState<Record<string, ReportWorkerStatus>>(
      this.deps.db,
      REPORT_WORKERS_KEY,
      {},
    );
    all[this.name] = this.status();
    // Workers silent for a day are dropped from the list.
    const cutoff = Date.now() - 86_400_000;
    for (const [key, value] of Object.entries(all)) {
      if (Date.parse(value.updated_at) < cutoff) delete all[key];
    }
    await writeState(this.deps.db, REPORT_WORKERS_KEY, all);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.wakeAll();
    await Promise.all(this.loops);
    await Promise.all(this.renderers.map((r) => r.close()));
  }
}
