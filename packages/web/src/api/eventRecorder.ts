import type { UsageEvent } from "./types";

export interface EventRecorderOptions {
  send: (events: UsageEvent[]) => Promise<unknown>;
  screenResolution: () => string;
  /** Seconds since the epoch. */
  now?: () => number;
  debounceMs?: number;
}

export type RecordEvent = (
  action: string,
  objectType: string,
  objectId?: string | number | null,
) => void;

/** Collects usage events and sends them as one batch once no new event came for the debounce time. */
export function createEventRecorder(options: EventRecorderOptions): RecordEvent {
  const debounceMs = options.debounceMs ?? 1000;
  const now = options.now ?? (() => Date.now() / 1000);
  let queue: UsageEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush() {
    timer = undefined;
    const batch = queue;
    queue = [];
    // Usage reporting never disturbs the user.
    if (batch.length > 0) options.send(batch).catch(() => undefined);
  }

  return (action, objectType, objectId = null) => {
    queue.push({
      action,
      object_type: objectType,
      object_id: objectId,
      timestamp: now(),
      screen_resolution: options.screenResolution(),
    });
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
}
