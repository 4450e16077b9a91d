// "Send test notification": one delivery at once, its outcome told in words (issue 25).
import { Alert } from "antd";
import { useRef, useState } from "react";
import { isApiError } from "../../api/errors";
import type { TestOutcome } from "./deliveries";

export const TEST_NOTIFICATION = "Send test notification";

/** Sends tests (one at a time: a click while one is on its way does nothing); the last outcome. */
export function useTestNotification() {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const busy = useRef(false);
  const run = async (send: () => Promise<TestOutcome>) => {
    if (busy.current) return;
    busy.current = true;
    setSending(true);
    setOutcome(null);
    try {
      setOutcome(await send());
    } catch (error) {
      const reason = isApiError(error) && error.serverMessage;
      setOutcome({ ok: false, message: reason || "The test notification could not be sent." });
    } finally {
      busy.current = false;
      setSending(false);
    }
  };
  return { sending, outcome, run };
}

export function TestOutcomeMessage({ outcome }: { outcome: TestOutcome | null }) {
  if (!outcome) return null;
  return (
    <Alert
      type={outcome.ok ? "success" : "error"}
      showIcon
      title={outcome.message}
      role="status"
      data-testid="test-outcome"
      style={{ marginTop: 8 }}
    />
  );
}
