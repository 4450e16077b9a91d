// Handing a run's rows to its consumer in batches (QueryRun.batches), for runners that have the
// rows one by one.
import type { Cell } from "./types";

/** Rows in one batch; the consumer stores and counts a batch at a time. */
export const BATCH_SIZE = 5000;

/** The rows in batches of `size` (the last one shorter; none when there are no rows). */
export async function* inBatches(
  rows: Iterable<Cell[]>,
  size = BATCH_SIZE,
): AsyncGenerator<Cell[][]> {
  let batch: Cell[][] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
