import type { Mailer } from "../mail";
import type { OutboundClient } from "../outbound/client";
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
  /**
   * Rendered `custom_subject` / `custom_body` as text, as Redash renders them: values as they are,
   * never HTML-escaped ("" when the alert has none).
   */
  subject: string;
  body: string;
  /** `custom_body` rendered for an HTML e-mail, its values HTML-escaped; "" or absent: none. */
  emailBody?: string;
  /** The e-mail body used when there is no custom body (status, condition, link, table). */
  defaultEmailBody: string;
  /** Public base address of the app (links in messages); "" when not configured. */
  host: string;
  /** Execution metadata (`Username`, `query_id`, ...); `{}` for a manual evaluation. */
  metadata: Record<string, unknown>;
}

/** What a destination sends with: the guarded HTTP client and the mailer. */
export interface DeliveryTools {
  outbound: OutboundClient;
  mailer: Mailer;
  /** Fixed service addresses (ChatWork, PagerDuty), replaceable in tests. */
  serviceUrls?: Partial<Record<"chatwork" | "pagerduty", string>>;
}

/**
 * One alert destination type: Redash's type id, display name, icon and configuration schema
 * (secret fields listed in `secret`), and how it sends a notification (§9.7). `send` throws when
 * the delivery failed, so the caller can retry and record it.
 */
export interface DestinationType {
  type: string;
  name: string;
  /** Redash's icon name (Font Awesome), kept for API compatibility. */
  icon: string;
  configurationSchema: ConfigurationSchema;
  /** Listed for existing destinations but not offered for new ones. */
  deprecated?: boolean;
  send(
    notification: AlertNotification,
    options: DestinationOptions,
    tools: DeliveryTools,
  ): Promise<void>;
}
