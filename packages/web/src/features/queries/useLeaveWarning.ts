// The leave-page check of the query editor (spec 2 §4): in-app links ask, the browser asks.
import { App } from "antd";
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";

export const LEAVE_WARNING = "You will lose your changes if you leave";

/**
 * While `active`, leaving for another page asks first when `hasUnsavedChanges()` says so. The
 * check runs at the moment of leaving, so text typed a moment ago counts.
 */
export function useLeaveWarning(active: boolean, hasUnsavedChanges: () => boolean): void {
  const { modal } = App.useApp();
  const check = useRef(hasUnsavedChanges);
  check.current = hasUnsavedChanges;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active && currentLocation.pathname !== nextLocation.pathname && check.current(),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    modal.confirm({
      title: LEAVE_WARNING,
      okText: "Leave",
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal]);
  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (!check.current()) return;
      e.preventDefault();
      e.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}
