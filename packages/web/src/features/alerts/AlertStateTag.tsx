import { Tag } from "antd";
import type { AlertState } from "../../api/alerts";

/** The alert states in antd's semantic colours (UI.md: unknown = warning, ok = success, triggered = danger). */
const COLOURS: Record<AlertState, string> = {
  unknown: "warning",
  ok: "success",
  triggered: "error",
};

export function AlertStateTag({ state }: { state: AlertState }) {
  return (
    <Tag color={COLOURS[state] ?? "default"} data-testid="alert-state">
      {state.toUpperCase()}
    </Tag>
  );
}
