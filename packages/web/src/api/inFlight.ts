// Identical requests under way at once share one answer: a dashboard's widgets that show the same
// query with the same parameter values start one run on load and on Refresh, not one each.

/** Keeps the calls under way by key; a call with a key already under way gets its promise. */
export class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();

  share(key: string, call: () => Promise<T>): Promise<T> {
    const under = this.pending.get(key);
    if (under) return under;
    const started = call().finally(() => this.pending.delete(key));
    this.pending.set(key, started);
    return started;
  }
}
