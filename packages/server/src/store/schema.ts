import type { ColumnType, Generated } from "kysely";

/**
 * Table types of the metadata store. Conventions that hold on SQLite and PostgreSQL alike:
 * timestamps are ISO-8601 UTC strings with milliseconds (they sort as text), JSON values are
 * stored as text, and booleans read back as 0/1 on SQLite (use `bool()` from ./values).
 */
type Id = Generated<number>;
type Bool = ColumnType<boolean | number, boolean, boolean>;
type Timestamp = string;
type Json = string;

export interface OrganizationsTable {
  id: Id;
  name: string;
  slug: string;
  settings: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Id;
  org_id: number;
  name: string;
  email: string;
  password_hash: string | null;
  api_key: string;
  profile_image_url: string | null;
  is_invitation_pending: Bool;
  is_email_verified: Bool;
  disabled_at: Timestamp | null;
  active_at: Timestamp | null;
  /** Changes whenever the password or email changes: invalidates sessions and reset links. */
  session_token: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GroupsTable {
  id: Id;
  org_id: number;
  type: string;
  name: string;
  permissions: Json;
  created_at: Timestamp;
}

export interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

export interface ApiKeysTable {
  id: Id;
  org_id: number;
  api_key: string;
  active: Bool;
  object_type: string;
  object_id: number;
  created_by_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DataSourcesTable {
  id: Id;
  org_id: number;
  name: string;
  type: string;
  /** Encrypted JSON of the runner options. */
  encrypted_options: string;
  queue_name: string;
  scheduled_queue_name: string;
  paused: Bool;
  pause_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DataSourceGroupsTable {
  id: Id;
  data_source_id: number;
  group_id: number;
  view_only: Bool;
}

export interface QueriesTable {
  id: Id;
  version: number;
  org_id: number;
  data_source_id: number | null;
  latest_query_data_id: number | null;
  name: string;
  description: string | null;
  query: string;
  query_hash: string;
  api_key: string;
  user_id: number;
  last_modified_by_id: number | null;
  is_archived: Bool;
  is_draft: Bool;
  schedule: Json | null;
  schedule_failures: number;
  options: Json;
  tags: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface QueryResultsTable {
  id: Id;
  org_id: number;
  data_source_id: number;
  query_hash: string;
  query: string;
  runtime: number;
  retrieved_at: Timestamp;
  /** JSON array of {name, friendly_name, type}. */
  columns: Json;
  row_count: number;
  /** Size of the result as Redash JSON rows, in bytes (for caps and status pages). */
  byte_size: number;
  truncated: Bool;
  log: Json;
  chunk_count: number;
  /** Where the chunks are: null in query_result_chunks, else an object storage place (s3://…). */
  chunk_location: string | null;
}

export interface QueryResultChunksTable {
  result_id: number;
  seq: number;
  row_count: number;
  /** Deflated row-object JSON text without brackets: `{"a":1},{"a":2}` (results/chunks.ts). */
  data: Buffer;
}

export interface VisualizationsTable {
  id: Id;
  type: string;
  query_id: number;
  name: string;
  description: string | null;
  options: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DashboardsTable {
  id: Id;
  version: number;
  org_id: number;
  slug: string;
  name: string;
  user_id: number;
  layout: Json;
  dashboard_filters_enabled: Bool;
  is_archived: Bool;
  is_draft: Bool;
  tags: Json;
  options: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WidgetsTable {
  id: Id;
  dashboard_id: number;
  visualization_id: number | null;
  text: string | null;
  width: number;
  options: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AlertsTable {
  id: Id;
  org_id: number;
  name: string;
  query_id: number;
  user_id: number;
  options: Json;
  state: string;
  last_triggered_at: Timestamp | null;
  rearm: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AlertSubscriptionsTable {
  id: Id;
  user_id: number;
  destination_id: number | null;
  alert_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationDestinationsTable {
  id: Id;
  org_id: number;
  user_id: number;
  name: string;
  type: string;
  encrypted_options: string;
  /** The last failed delivery's reason and time (migration 004). */
  last_failure: string | null;
  last_failure_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FavoritesTable {
  id: Id;
  org_id: number;
  object_type: string;
  object_id: number;
  user_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventsTable {
  id: Id;
  org_id: number;
  user_id: number | null;
  action: string;
  object_type: string;
  object_id: string | null;
  additional_properties: Json;
  created_at: Timestamp;
}

export interface ChangesTable {
  id: Id;
  object_type: string;
  object_id: number;
  object_version: number;
  user_id: number;
  change: Json;
  created_at: Timestamp;
}

/** A saved version of a query or dashboard (store/objectVersions.ts). */
export interface ObjectVersionsTable {
  id: Id;
  org_id: number;
  object_type: string;
  object_id: number;
  version: number;
  user_id: number | null;
  /** JSON list of the names of the fields that changed. */
  changes: Json;
  /** Deflated JSON of the whole object as it was after the save. */
  snapshot: Buffer;
  created_at: Timestamp;
}

/** One finished execution (store/queryRuns.ts). */
export interface QueryRunsTable {
  id: Id;
  org_id: number;
  /** Null for an ad hoc run. */
  query_id: number | null;
  data_source_id: number | null;
  /** Null for the scheduler or an API key without a user. */
  user_id: number | null;
  scheduled: Bool;
  /** "success", "failed", "cancelled" or "timeout". */
  status: string;
  error: string | null;
  rows: number | null;
  result_id: number | null;
  started_at: Timestamp;
  /** Seconds. */
  runtime: number;
}

export interface AccessPermissionsTable {
  id: Id;
  object_type: string;
  object_id: number;
  access_type: string;
  grantor_id: number;
  grantee_id: number;
}

export interface QuerySnippetsTable {
  id: Id;
  org_id: number;
  trigger: string;
  description: string;
  user_id: number;
  snippet: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Small server-wide state (scheduler status, last refresh times). */
export interface ServerStateTable {
  key: string;
  value: Json;
  updated_at: Timestamp;
}

export interface EndedSessionsTable {
  id: string;
  keep_until: Timestamp;
}

/** A scheduled report of a dashboard or a query visualization (reports/, migration 008). */
export interface ReportSubscriptionsTable {
  id: Id;
  org_id: number;
  /** The owner: the report runs with this user's rights. */
  user_id: number;
  dashboard_id: number | null;
  query_id: number | null;
  visualization_id: number | null;
  name: string;
  /** JSON: a query schedule {interval, time, day_of_week, until}. */
  schedule: Json;
  /** "png", "pdf", "csv", "xlsx" or "link". */
  format: string;
  /** JSON: {emails: string[], destination_ids: number[]}. */
  recipients: Json;
  parameters: Json;
  skip_if_empty: Bool;
  only_if_changed: Bool;
  active: Bool;
  last_scheduled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One sending of a report subscription (reports/). */
export interface ReportRunsTable {
  id: Id;
  org_id: number;
  subscription_id: number;
  /** "queued", "running", "sent", "skipped" or "failed". */
  status: string;
  /** "schedule" or "manual". */
  trigger: string;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  duration_ms: number | null;
  /** JSON list of the recipients' descriptions. */
  recipients: Json;
  error: string | null;
  /** JSON list of {widget_id, name, state, error?}. */
  widgets: Json;
  /** JSON: widget id -> {result_id} or {error}: the pinned results, null until the queries ran. */
  results: Json | null;
  /** Digest of the pinned results' data (only_if_changed). */
  digest: string | null;
  thumbnail: Buffer | null;
  attempts: number;
  claimed_at: Timestamp | null;
  /** The nonce of the one print token still usable; cleared when used. */
  print_nonce: string | null;
}

/** A SAML AuthnRequest this installation sent, until answered or expired (migration 009). */
export interface SamlRequestsTable {
  id: string;
  org_id: number;
  next: string;
  /** The admin running a test sign-in, or null for a real one. */
  tested_by: number | null;
  expires_at: Timestamp;
}

/** An accepted SAML assertion's ID, kept until it expires so it is not accepted again. */
export interface SamlUsedAssertionsTable {
  id: string;
  keep_until: Timestamp;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  api_keys: ApiKeysTable;
  data_sources: DataSourcesTable;
  data_source_groups: DataSourceGroupsTable;
  queries: QueriesTable;
  query_results: QueryResultsTable;
  query_result_chunks: QueryResultChunksTable;
  visualizations: VisualizationsTable;
  dashboards: DashboardsTable;
  widgets: WidgetsTable;
  alerts: AlertsTable;
  alert_subscriptions: AlertSubscriptionsTable;
  notification_destinations: NotificationDestinationsTable;
  favorites: FavoritesTable;
  events: EventsTable;
  changes: ChangesTable;
  object_versions: ObjectVersionsTable;
  query_runs: QueryRunsTable;
  access_permissions: AccessPermissionsTable;
  query_snippets: QuerySnippetsTable;
  server_state: ServerStateTable;
  ended_sessions: EndedSessionsTable;
  report_subscriptions: ReportSubscriptionsTable;
  report_runs: ReportRunsTable;
  saml_requests: SamlRequestsTable;
  saml_used_assertions: SamlUsedAssertionsTable;
}
