// Edit mode's layout saving (spec 3 §4): positions are saved 2 s after the last change, only for
// the widgets that moved; the status reads saved, saving or saving_failed (with a retry).
import { useCallback, useEffect, useRef, useState } from "react";
import { saveWidget, type DashboardWidget, type WidgetPosition } from "../../api/dashboards";
import { notify } from "../../app/notifications";
import { isWidgetGone } from "./widgetSaveError";

export const LAYOUT_SAVE_DELAY_MS = 2000;

export type SaveStatus = "saved" | "saving" | "saving_failed";

export interface LayoutSaver {
  status: SaveStatus;
  /** Positions waiting for their save (the grid shows them at once). */
  pending: ReadonlyMap<number, WidgetPosition>;
  change: (positions: ReadonlyMap<number, WidgetPosition>) => void;
  retry: () => void;
  /** Saves what is waiting now; resolves true once nothing is waiting or in flight. */
  flush: () => Promise<boolean>;
}

export function useLayoutSaver(
  widgets: readonly DashboardWidget[],
  onSaved: (saved: DashboardWidget[]) => void,
): LayoutSaver {
  const [pending, setPendingState] = useState<ReadonlyMap<number, WidgetPosition>>(new Map());
  const [status, setStatus] = useState<SaveStatus>("saved");
  // The ref is the truth (a save's end reads it before React renders again); the state shows it.
  const pendingRef = useRef<ReadonlyMap<number, WidgetPosition>>(pending);
  const setPending = (next: ReadonlyMap<number, WidgetPosition>) => {
    pendingRef.current = next;
    setPendingState(next);
  };
  const widgetsRef = useRef(widgets);
  widgetsRef.current = widgets;
  const savedRef = useRef(onSaved);
  savedRef.current = onSaved;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<boolean> | null>(null);

  const save = useCallback((): Promise<boolean> => {
    clearTimeout(timer.current);
    if (inFlight.current) return inFlight.current.then(() => save());
    const batch = pendingRef.current;
    if (batch.size === 0) return Promise.resolve(true);
    setStatus("saving");
    const calls = [...batch].map(([id, position]) => {
      const widget = widgetsRef.current.find((w) => w.id === id);
      if (!widget) return Promise.resolve(null);
      return saveWidget(id, {
        text: widget.text ?? "",
        options: { ...widget.options, position },
      }).catch((error: unknown) => {
        // Removed in another tab: its position has nothing left to save (retrying would fail forever).
        if (isWidgetGone(error)) return null;
        throw error;
      });
    });
    const done = Promise.all(calls).then(
      (saved) => {
        inFlight.current = null;
        // Positions changed again during the save stay pending.
        const next = new Map(pendingRef.current);
        for (const [id, position] of batch) if (next.get(id) === position) next.delete(id);
        setPending(next);
        savedRef.current(saved.filter((w): w is DashboardWidget => w !== null));
        setStatus("saved");
        return true;
      },
      () => {
        inFlight.current = null;
        setStatus("saving_failed");
        notify.error("Error saving changes.");
        return false;
      },
    );
    inFlight.current = done;
    return done;
  }, []);

  const change = useCallback(
    (positions: ReadonlyMap<number, WidgetPosition>) => {
      if (positions.size === 0) return;
      setPending(new Map([...pendingRef.current, ...positions]));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), LAYOUT_SAVE_DELAY_MS);
    },
    [save],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  const flush = useCallback(async () => {
    const ok = await save();
    return ok && pendingRef.current.size === 0;
  }, [save]);

  return { status, pending, change, retry: () => void save(), flush };
}
