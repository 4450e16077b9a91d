// Leaving a dashboard in edit mode (spec 3 §4; issue 25): a layout change waiting for its save, or
// being saved, is saved first and then the page is left, without a question. The question ("You
// will lose your changes…") comes only when the save fails or takes too long, and goes when the
// save ends meanwhile. Leaving the document (reload, another site) cannot wait: the browser asks.
import { App } from "antd";
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { LEAVE_WARNING } from "../queries/useLeaveWarning";

/** How long leaving waits for the save before asking. */
export const LEAVE_SAVE_WAIT_MS = 4000;

export function useLeaveAfterSave(
  active: boolean,
  hasUnsavedChanges: () => boolean,
  /** Saves what is waiting; resolves true once everything is saved. */
  flush: () => Promise<boolean>,
): void {
  const { modal } = App.useApp();
  const latest = useRef({ hasUnsavedChanges, flush });
  latest.current = { hasUnsavedChanges, flush };
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active &&
      currentLocation.pathname !== nextLocation.pathname &&
      latest.current.hasUnsavedChanges(),
  );
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blocker.state !== "blocked") return;
    // Settled once: left, stayed (Cancel) or this effect cleaned up.
    let settled = false;
    let question: { destroy: () => void } | null = null;
    const leave = () => {
      if (settled) return;
      settled = true;
      question?.destroy();
      blockerRef.current.proceed?.();
    };
    const ask = () => {
      if (settled || question) return;
      question = modal.confirm({
        title: LEAVE_WARNING,
        okText: "Leave",
        onOk: leave,
        onCancel: () => {
          if (settled) return;
          settled = true;
          blockerRef.current.reset?.();
        },
      });
    };
    const timer = setTimeout(ask, LEAVE_SAVE_WAIT_MS);
    void latest.current.flush().then((saved) => {
      clearTimeout(timer);
      if (saved) leave();
      else ask();
    });
    return () => {
      settled = true;
      clearTimeout(timer);
      question?.destroy();
    };
  }, [blocker.state, modal]);

  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (!latest.current.hasUnsavedChanges()) return;
      e.preventDefault();
      e.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}
