// JSON shapes of the API entities shared by client and server (Redash-compatible).
import type { ColumnType } from "./columns";
import type { ParameterDefinition } from "./parameters/types";
import type { Schedule } from "./schedules";

/** ISO-8601 timestamp string (milliseconds, "Z" for UTC). */
export type Timestamp = string;

export interface User {
  id: number;
  name: string;
  email: string;
  profile_image_url: string;
  groups: number[];
  updated_at: Timestamp;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
  is_disabled: boolean;
  active_at: Timestamp | null;
  is_invitation_pending: boolean;
  is_email_verified: boolean;
  auth_type: "password" | "external";
  /** Only for the user themself and admins. */
  api_key?: string;
  /** Only when the invite was not sent by mail. */
  invite_link?: string;
}

/** The short user object embedded in dashboards. */
export interface UserSummary {
  id: number;
  name: string;
  email: string;
  profile_image_url: string;
}

export interface Group {
  id: number;
  name: string;
  permissions: string[];
  type: "builtin" | "regular";
  created_at: Timestamp;
}

export interface QueryOptions {
  parameters?: ParameterDefinition[];
  apply_auto_limit?: boolean;
  [key: string]: unknown;
}

export interface Visualization {
  id: number;
  type: string;
  name: string;
  description: string | null;
  options: Record<string, unknown>;
  updated_at: Timestamp;
  created_at: Timestamp;
  /** Present when embedded in a widget. */
  query?: Query;
}

export interface Query {
  id: number;
  name: string;
  description: string | null;
  query: string;
  query_hash: string;
  schedule: Schedule | null;
  api_key: string;
  is_archived: boolean;
  is_draft: boolean;
  is_safe: boolean;
  updated_at: Timestamp;
  created_at: Timestamp;
  data_source_id: number | null;
  latest_query_data_id: number | null;
  options: QueryOptions;
  version: number;
  tags: string[];
  user?: User;
  user_id?: number;
  last_modified_by?: User | null;
  last_modified_by_id?: number | null;
  visualizations?: Visualization[];
  can_edit?: boolean;
  is_favorite?: boolean;
  starred_at?: Timestamp;
  retrieved_at?: Timestamp | null;
  runtime?: number | null;
}

export interface QueryResultColumn {
  name: string;
  friendly_name?: string;
  type: ColumnType | null;
}

export interface QueryResultData {
  columns: QueryResultColumn[];
  rows: Record<string, unknown>[];
  truncated?: boolean;
  /** Sightline: rows in the stored result, sent when the display cap shortened `rows`. */
  row_count?: number;
  /** Sightline: the stored result itself was cut at the stored-rows cap. */
  stored_truncated?: boolean;
  log?: string[];
  metadata?: Record<string, unknown>;
}

export interface QueryResult {
  id: number;
  query_hash: string;
  query: string;
  data: QueryResultData;
  data_source_id: number;
  /** Seconds. */
  runtime: number;
  retrieved_at: Timestamp;
}

/** What API keys receive from the execution endpoints. */
export interface ReducedQueryResult {
  data: QueryResultData;
  retrieved_at: Timestamp;
}

export const JobStatus = {
  WAITING: 1,
  PROCESSING: 2,
  DONE: 3,
  FAILED: 4,
  CANCELLED: 5,
} as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

export interface Job {
  id: string;
  /** Start time while processing, otherwise 0. */
  updated_at: 0 | string;
  status: JobStatus;
  /** "" when none; an object for schema jobs. */
  error: string | { code: number; message: string; details?: string };
  result: unknown;
  query_result_id: number | null;
}

export const JOB_CANCELLED_MESSAGE = "Query cancelled by user.";

export interface DataSource {
  id: number;
  name: string;
  type: string;
  syntax: string;
  paused: number | boolean;
  pause_reason: string | null;
  supports_auto_limit: boolean;
  view_only?: boolean;
  /** Admin views only; secrets masked. */
  options?: Record<string, unknown>;
  queue_name?: string;
  scheduled_queue_name?: string;
  groups?: Record<string, boolean>;
}

export interface ConfigurationSchema {
  type: "object";
  properties: Record<
    string,
    {
      type: string;
      title?: string;
      default?: unknown;
      enum?: unknown[];
      extendedEnum?: { value: unknown; name: string }[];
    }
  >;
  required?: string[];
  order?: string[];
  secret?: string[];
  extra_options?: string[];
}

export interface DataSourceType {
  name: string;
  type: string;
  configuration_schema: ConfigurationSchema;
  deprecated?: true;
}

/** The mask that replaces secret option values on read. */
export const SECRET_MASK = "--------";

export interface Widget {
  id: number;
  width: number;
  options: Record<string, unknown>;
  dashboard_id: number;
  text: string | null;
  updated_at: Timestamp;
  created_at: Timestamp;
  visualization?: Visualization;
  restricted?: true;
}

export interface Dashboard {
  id: number;
  slug: string;
  name: string;
  user_id: number;
  user: UserSummary;
  layout: unknown[];
  dashboard_filters_enabled: boolean;
  widgets: Widget[] | null;
  options: Record<string, unknown>;
  is_archived: boolean;
  is_draft: boolean;
  tags: string[];
  updated_at: Timestamp;
  created_at: Timestamp;
  version: number;
  is_favorite?: boolean;
  starred_at?: Timestamp;
  can_edit?: boolean;
  public_url?: string;
  api_key?: string;
}

export type AlertState = "unknown" | "ok" | "triggered";

export interface AlertOptions {
  column?: string;
  op?: string;
  value?: unknown;
  selector?: "first" | "min" | "max";
  muted?: boolean;
  custom_subject?: string;
  custom_body?: string;
  template?: string;
  [key: string]: unknown;
}

export interface Alert {
  id: number;
  name: string;
  options: AlertOptions;
  state: AlertState;
  last_triggered_at: Timestamp | null;
  updated_at: Timestamp;
  created_at: Timestamp;
  rearm: number | null;
  query: Query;
  user: User;
}

export interface Destination {
  id: number;
  name: string;
  type: string;
  icon: string;
  /** Full form only; secrets masked. */
  options?: Record<string, unknown>;
}

export interface AlertSubscription {
  id: number;
  user: User;
  alert_id: number;
  destination?: Destination;
}

export interface ClientConfig {
  newVersionAvailable?: boolean;
  version?: string;
  showBeaconConsentMessage?: boolean;
  allowScriptsInUserInput: boolean;
  showPermissionsControl: boolean;
  hidePlotlyModeBar: boolean;
  disablePublicUrls: boolean;
  multiByteSearchEnabled: boolean;
  allowCustomJSVisualizations: boolean;
  autoPublishNamedQueries: boolean;
  /** Publishing controls hidden (Unpublish); Redash's web client setting. */
  disablePublish?: boolean;
  extendedAlertOptions: boolean;
  mailSettingsMissing: boolean;
  dashboardRefreshIntervals: number[];
  queryRefreshIntervals: number[];
  googleLoginEnabled: boolean;
  ldapLoginEnabled: boolean;
  /** Sightline's own: generic OpenID Connect sign-in is configured (SIGHTLINE_OIDC_*). */
  oidcLoginEnabled?: boolean;
  pageSize: number;
  pageSizeOptions: number[];
  tableCellMaxJSONSize: number;
  basePath: string;
  dateFormat: string;
  dateFormatList: string[];
  timeFormatList: string[];
  dateTimeFormat: string;
  integerFormat: string;
  floatFormat: string;
  thousandsSeparator: string;
  decimalSeparator: string;
  nullValue: string;
  /** Default tile server of map visualizations ({z}/{x}/{y} template); "" for none. */
  mapTileUrl?: string;
  /** Sightline's own: show Gravatar images (off: initials drawn locally, nothing fetched). */
  gravatarAvatars?: boolean;
}

export type SessionMessage = "email-not-verified" | "using-deprecated-embed-feature";

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile_image_url: string;
  groups: number[];
  permissions: string[];
}

/** API-key principals get no identity, only their key. */
export interface ApiKeySessionUser {
  permissions: string[];
  apiKey: string;
}

export interface Session {
  user: SessionUser | ApiKeySessionUser;
  messages: SessionMessage[];
  org_slug: string;
  client_config: ClientConfig;
}

export interface Paginated<T> {
  count: number;
  page: number;
  page_size: number;
  results: T[];
}

export interface ErrorResponse {
  message: string;
}
