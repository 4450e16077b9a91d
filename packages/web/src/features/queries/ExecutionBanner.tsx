import { Alert, Button } from "antd";
import { useEffect, useState, useSyncExternalStore } from "react";
import { formatElapsed } from "@sightline/core";
import { loginWaiter } from "../../api/http";
import { STATUS_TEXT, type ExecutionState } from "./execution";
import styles from "./ExecutionBanner.module.css";

interface ExecutionBannerProps {
  state: ExecutionState | null;
  onCancel: () => void;
}

/** The status of a running execution, or its error (spec 2 §2). */
export function ExecutionBanner({ state, onCancel }: ExecutionBannerProps) {
  const [now, setNow] = useState(Date.now());
  const running = !!state && state.status !== "done" && state.status !== "failed";
  // Behind the Session Expired dialog the run waits for the login: its clock stands still.
  const expired = useSyncExternalStore(loginWaiter.subscribe, loginWaiter.isExpired);
  useEffect(() => {
    if (!running || expired) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [running, expired]);

  if (!state || state.status === "done") return null;
  if (state.status === "failed") {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="execution-error"
        className={styles.failed}
        title={
          <>
            Error running query: <span className={styles.errorText}>{state.error ?? ""}</span>
          </>
        }
      />
    );
  }
  const cancellable = state.status === "waiting" || state.status === "processing";
  return (
    <Alert
      type="info"
      showIcon
      data-testid="execution-status"
      title={
        <span>
          {STATUS_TEXT[state.status]}{" "}
          <span style={{ opacity: 0.7 }}>{formatElapsed((now - state.since) / 1000)}</span>
        </span>
      }
      action={
        cancellable && (
          <Button size="small" onClick={onCancel} data-testid="cancel-execution">
            Cancel
          </Button>
        )
      }
    />
  );
}
