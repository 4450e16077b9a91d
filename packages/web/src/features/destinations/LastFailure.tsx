// A destination's last failed delivery, with its time: on its page and on each alert using it.
import { WarningOutlined } from "@ant-design/icons";
import { Alert, Typography } from "antd";
import { useSession } from "../../app/session";
import { formatDateTime } from "../queries/display";
import type { DestinationWithFailure } from "./deliveries";

/** The sentence shown; null when no delivery has failed. */
export function lastFailureText(
  destination: DestinationWithFailure,
  formatTime: (value: string) => string,
): string | null {
  if (!destination.last_failure_at) return null;
  const when = formatTime(destination.last_failure_at);
  return destination.last_failure
    ? `Last delivery failed on ${when}: ${destination.last_failure}`
    : `Last delivery failed on ${when}.`;
}

export function LastFailure({
  destination,
  compact = false,
}: {
  destination: DestinationWithFailure;
  /** One small line (an alert's destination list) instead of a banner. */
  compact?: boolean;
}) {
  const { client_config: config } = useSession();
  const text = lastFailureText(destination, (value) => formatDateTime(value, config));
  if (!text) return null;
  if (compact) {
    return (
      <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="last-failure">
        <WarningOutlined aria-hidden /> {text}
      </Typography.Text>
    );
  }
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={text}
      description="Fix the settings below, then send a test notification to check them."
      data-testid="last-failure"
    />
  );
}
