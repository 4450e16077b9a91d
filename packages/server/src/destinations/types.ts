import type { ConfigurationSchema } from "../runners/types";

/** Destination options as stored (decrypted): the keys of the type's configuration schema. */
export type DestinationOptions = Record<string, unknown>;

export type AlertState = "unknown" | "ok" | "triggered";

/** What an alert hands a destination when its state changes (api-platform.md §9.5–§9.7). */
export interface AlertNotification {
  alert: {
    id: number;
    name: string;
    state: AlertState;
    options: Record<string, unknown>;
    rearm: number | null;
    last_triggered_at: string | null;
    created_at: string;
    updated_at: string;
    query_id: number;
    user_id: number;
  };
  query: { id: number; name: string; query: string };
  newState: AlertState;
  /** Rendered `custom_subject` / `custom_body` ("" when the alert has none). */
  subject: string;
  body: string;
  /** Public base address of the app (links in messages); "" when not configured. */
  host: string;
  /** Execution metadata (`Username`, `query_id`, ...); `{}` for a manual evaluation. */
  metadata: Record<string, unknown>;
}

/**
 * One alert destination type: Redash's type id, display name, icon and configuration schema
 * (secret fields listed in `secret`). Delivery arrives with alerts: each type then implements
 * `notify`; until then no type declares it.
 */
export interface DestinationType {
  type: string;
  name: string;
  /** Redash's icon name (Font Awesome), kept for API compatibility. */
  icon: string;
  configurationSchema: ConfigurationSchema;
  /** Listed for existing destinations but not offered for new ones. */
  deprecated?: boolean;
  notify?(notification: AlertNotification, options: DestinationOptions): Promise<void>;
}
