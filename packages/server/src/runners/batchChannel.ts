import type { RowBatch } from "./types";

/**
 * Hands row batches from a driver to the consumer with backpressure: the producer awaits
 * `push` while `highWater` batches are waiting, so a slow consumer pauses the database read.
 * If the consumer stops early (breaks out of its loop), `onClose` stops the query.
 */
export class BatchChannel<
  Batch extends { length: number } = RowBatch,
> implements AsyncIterable<Batch> {
  private readonly queue: Batch[] = [];
  private finished = false;
  private failure: Error | null = null;
  private closed = false;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;

  constructor(
    private readonly onClose: () => void,
    private readonly highWater = 2,
  ) {}

  /** Resolves when there is room for more; false once the consumer has gone away. */
  async push(batch: Batch): Promise<boolean> {
    if (this.closed || this.finished) return false;
    if (batch.length > 0) this.queue.push(batch);
    this.notifyConsumer();
    while (this.queue.length >= this.highWater && !this.closed && !this.failure) {
      await new Promise<void>((resolve) => (this.wakeProducer = resolve));
    }
    return !this.closed && !this.failure;
  }

  end(): void {
    this.finished = true;
    this.notifyConsumer();
  }

  fail(error: Error): void {
    if (this.finished) return;
    this.failure = error;
    this.finished = true;
    this.notifyConsumer();
    this.notifyProducer();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Batch> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          this.notifyProducer();
          yield next;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.finished) return;
        await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      }
    } finally {
      if (!this.finished || this.queue.length > 0) {
        this.closed = true;
        this.queue.length = 0;
        this.notifyProducer();
        this.onClose();
      }
    }
  }

  private notifyConsumer(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = null;
    wake?.();
  }

  private notifyProducer(): void {
    const wake = this.wakeProducer;
    this.wakeProducer = null;
    wake?.();
  }
}
