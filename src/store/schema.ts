import type { Generated } from 'kysely';

// Table types. Timestamps are ISO-8601 UTC text and JSON columns are text on both
// dialects, so the repositories read identical values from SQLite and PostgreSQL.

export interface VendorsTable {
  slug: string;
  name: string;
  website: string;
  category: string;
  description: string;
  status_page_url: string;
  /** JSON array of the hosts the vendor documents (docs/diagnose.md "Hosts"). */
  hostnames: string;
  data_types: string;
  compliance: string;
  position: number;
  updated_at: string;
  /** The account a user-added page belongs to; null for the public catalog (docs/per-user.md). */
  owner_id: string | null;
  /** When a user added the page; null for catalog vendors. */
  added_at: string | null;
}

export interface SourcesTable {
  id: string;
  vendor: string;
  type: string;
  url: string;
  interval_seconds: number | null;
  etag: string | null;
  last_modified: string | null;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  consecutive_failures: number;
  next_poll_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  last_duration_ms: number | null;
  /** First successful poll (docs/statistics.md "Observation window"). */
  first_success_at: string | null;
  /** First failure of the current run of failures; null while the source succeeds. */
  failing_since: string | null;
  /** 1 for a URL a user gave: every request goes through the outbound guard. */
  guarded: number;
  /** 1 while the last read showed an open incident, a problem or maintenance (docs/ingestion.md "Adaptive polling"). */
  hot: number;
  /** 304 answers in a row. */
  quiet_polls: number;
  /** The interval the next poll was scheduled with, and why; null before the first poll. */
  schedule_seconds: number | null;
  schedule_reason: string | null;
  /** The last vendor push for this source: a poll that started before it is followed by another. */
  pushed_at: string | null;
}

export interface PushHooksTable {
  id: string;
  vendor: string;
  /** SHA-256 (hex) of the URL's token; the token itself is shown once (docs/ingestion.md "Push from vendors"). */
  token_hash: string;
  created_at: string;
  last_push_at: string | null;
  pushes: number;
}

export interface VendorStatusTable {
  vendor: string;
  indicator: string;
  description: string;
  checked_at: string;
}

export interface ComponentsTable {
  vendor: string;
  id: string;
  name: string;
  status: string;
  group_name: string | null;
  position: number;
  updated_at: string;
}

export interface IncidentsTable {
  id: string;
  vendor: string;
  title: string;
  status: string;
  source_status: string;
  impact: string;
  started_at: string;
  updated_at: string;
  resolved_at: string | null;
  components: string;
  updates: string;
  url: string | null;
  source: string;
  fingerprint: string;
}

export interface MaintenancesTable {
  id: string;
  vendor: string;
  title: string;
  status: string;
  source_status: string;
  impact: string;
  scheduled_for: string;
  scheduled_until: string | null;
  started_at: string | null;
  completed_at: string | null;
  components: string;
  updates: string;
  url: string | null;
  source: string;
  fingerprint: string;
}

export interface AdvisoriesTable {
  id: string;
  vendor: string;
  title: string;
  severity: string;
  cves: string;
  published_at: string;
  updated_at: string;
  summary: string;
  url: string | null;
  source: string;
  fingerprint: string;
}

export interface ReleaseUpdatesTable {
  id: string;
  vendor: string;
  title: string;
  published_at: string;
  summary: string;
  categories: string;
  url: string | null;
  source: string;
  fingerprint: string;
}

export interface EventsTable {
  /** Handed out from `event_head` at the end of the appending transaction (commit order). */
  seq: number;
  type: string;
  vendor: string;
  entity_kind: string;
  entity_id: string;
  occurred_at: string;
  payload: string;
}

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  /** scrypt, self-describing: `scrypt$N$r$p$salt$hash` (base64url). */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 hex of the cookie value. */
  token_hash: string;
  user_id: string;
  /** The organisation the session acts for (switchable); null when it was deleted. */
  org_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  /** The member the key acts as; null for an organisation key (a service account with `role`). */
  user_id: string | null;
  role: string | null;
  name: string;
  /** SHA-256 hex of the secret. */
  key_hash: string;
  /** First characters of the secret, for display only. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface WatchlistsTable {
  org_id: string;
  version: number;
  updated_at: string;
}

export interface WatchlistVendorsTable {
  org_id: string;
  vendor: string;
  position: number;
  added_at: string;
}

/** First message of an incident in a threaded channel (Slack: conversation id + message ts). */
export interface AlertThreadsTable {
  org_id: string;
  channel: string;
  entity_id: string;
  conversation: string;
  ref: string;
  created_at: string;
}

export interface NotificationPreferencesTable {
  org_id: string;
  /** JSON: the non-secret settings document (domain/preferences.ts StoredPreferences). */
  settings: string;
  webhook_secret: string | null;
  /** The secret replaced by the last rotation, still used to sign until it expires. */
  webhook_previous_secret: string | null;
  webhook_previous_expires_at: string | null;
  pagerduty_routing_key: string | null;
  /** SHA-256 (hex) of the personal feed token; the token itself is never stored. */
  rss_token_hash: string | null;
  /** Last characters of the feed token, for the masked feed URL. */
  rss_token_hint: string | null;
  /** JSON written by the Slack connection flow; read-only through the API. */
  slack_connection: string | null;
  /** Sealed JSON (infra/secret-box.ts) of the channel secrets kept apart from the columns above. */
  channel_secrets: string | null;
  /** The e-mail address whose owner followed a confirmation link (docs/alerts.md). */
  email_confirmed_address: string | null;
  /** SHA-256 (hex) of the pending confirmation token; the token itself is never stored. */
  email_confirm_token_hash: string | null;
  /** The address the pending token confirms. */
  email_confirm_address: string | null;
  email_confirm_expires_at: string | null;
  version: number;
  updated_at: string;
}

export interface OAuthClientsTable {
  client_id: string;
  /** SHA-256 hex of the client secret; null for public clients (auth method `none`). */
  secret_hash: string | null;
  name: string;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  /** JSON array. */
  grant_types: string;
  auth_method: string;
  /** Space-separated scopes the client may ask for. */
  scope: string;
  /** JSON of the other registered metadata (client_uri, software_id ...). */
  metadata: string;
  created_at: string;
  last_used_at: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  org_id: string | null;
  scope: string;
  /** The MCP resource URL the tokens of this grant are for (RFC 8707 audience). */
  resource: string;
  created_at: string;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  /** SHA-256 hex of the authorization code. */
  code_hash: string;
  grant_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge. */
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthTokensTable {
  /** SHA-256 hex of the token. */
  token_hash: string;
  kind: 'access' | 'refresh';
  grant_id: string;
  created_at: string;
  expires_at: string;
  /** Set on revocation, and on a refresh token once it was exchanged (rotation). */
  revoked_at: string | null;
}

/** Times a subject was counted within its window (repositories/sliding-limits-repository.ts). */
export interface SlidingLimitsTable {
  subject: string;
  /** JSON array of epoch milliseconds, oldest first. */
  stamps: string;
  expires_at: string;
}

export interface StoreMetaTable {
  key: string;
  value: string;
  updated_at: string;
}

/** One row (id 1): the last event sequence number handed out; its row lock orders commits. */
export interface EventHeadTable {
  id: number;
  last_seq: number;
}

export interface AlertCursorsTable {
  name: string;
  seq: number;
  updated_at: string;
}

/** An event held for an organisation whose secrets do not open (migration 1580). */
export interface DispatchHoldsTable extends Omit<EventsTable, 'seq'> {
  org_id: string;
  event_seq: number;
  held_at: string;
}

/** The record of an event's alerts, once per event (migration 0950). */
export interface AlertPayloadsTable {
  event_seq: number;
  payload: string;
  created_at: string;
}

export interface DeliveriesTable {
  id: string;
  /** null for test deliveries (POST /notification-preferences/test). */
  event_seq: number | null;
  org_id: string;
  /** webhook | pagerduty | slack | email | in_app | rss */
  channel: string;
  event_type: string;
  vendor: string;
  entity_id: string;
  /**
   * JSON: the record (Incident or Maintenance view) of a row without an event
   * (summaries, reminders, tests) or written before migration 0950; '' = the
   * event's payload in `alert_payloads`.
   */
  payload: string;
  occurred_at: string;
  /** pending | succeeded | failed | cancelled */
  status: string;
  attempts: number;
  /** When a pending row is due (during an attempt: when its lease ends). */
  next_attempt_at: string | null;
  lease_owner: string | null;
  last_status_code: number | null;
  last_error: string | null;
  is_test: number;
  /** Where the row is sent: webhook host (with port) or the channel's service; null = unknown (fair share, docs/alerts.md). */
  receiver: string | null;
  /** The alert route the row goes by; '' = the organisation's notification preferences (docs/alert-routes.md). */
  route_id: string;
  /** JSON: the organisation's services the alert hits; '' = the organisation had no services (docs/alert-routes.md "Affected services in alerts"). */
  affected_services: Generated<string>;
  /** The entity whose thread the row posts into; '' = its own (a confirmed signal's incident: the signal's). */
  thread_entity: Generated<string>;
  /** In-app notifications: when the user marked it read. */
  read_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** succeeded | retry | failed | disabled | cancelled */
  outcome: string;
}

export interface BoardsTable {
  id: string;
  org_id: string;
  token_hash: string;
  title: string;
  vendors: string;
  frame_ancestors: string;
  created_at: string;
}

export interface OrganisationsTable {
  id: string;
  name: string;
  plan: string;
  /** Set on the personal organisation of that account (organisations-repository.ts). */
  personal_user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  /** owner | admin | editor | viewer (domain/org-roles.ts). */
  role: string;
  created_at: string;
}

export interface InvitationsTable {
  id: string;
  org_id: string;
  /** Lower-cased; only a user signed in with this address can accept. */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  outcome: string | null;
  decided_at: string | null;
}

export interface AuditLogTable {
  org_id: string;
  seq: number;
  id: string;
  at: string;
  /** user | key | scim | operator | system */
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  address: string | null;
  action: string;
  target: string;
  details: string;
  prev_hash: string;
  hash: string;
}

export interface AuditHeadsTable {
  org_id: string;
  seq: number;
  hash: string;
  floor_seq: number;
  floor_hash: string;
}

export interface OrgWatchlistsTable {
  id: string;
  org_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface ScimTokensTable {
  id: string;
  org_id: string;
  name: string;
  /** SHA-256 hex of the token. */
  token_hash: string;
  prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ScimUsersTable {
  id: string;
  org_id: string;
  user_id: string;
  user_name: string;
  /** Lower-cased user_name (unique per organisation). */
  user_name_key: string;
  external_id: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  /** 1 or 0. */
  active: number;
  created_at: string;
  updated_at: string;
}

export interface ScimGroupsTable {
  id: string;
  org_id: string;
  display_name: string;
  display_name_key: string;
  external_id: string | null;
  role: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScimGroupMembersTable {
  group_id: string;
  scim_user_id: string;
}

export interface OrgWatchlistVendorsTable {
  watchlist_id: string;
  vendor: string;
  position: number;
}

export interface AlertRoutesTable {
  id: string;
  org_id: string;
  name: string;
  channel: string;
  enabled: number;
  /** Sealed JSON of the destination (URL, key, addresses). */
  destination: string;
  /** Fair-share key: the destination's host, or the channel's service. */
  receiver: string | null;
  /** JSON of the route's filters (src/domain/alert-routes.ts). */
  filters: string;
  /** Why the route was switched off by a delivery (the destination is gone); null otherwise. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SsoConnectionsTable {
  org_id: string;
  issuer: string;
  client_id: string;
  /** Sealed with the secret box. */
  client_secret: string;
  default_role: string;
  sso_required: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface SsoDomainsTable {
  id: string;
  org_id: string;
  domain: string;
  verification_token: string;
  verified_at: string | null;
  created_at: string;
}

export interface SsoPendingLoginsTable {
  state_hash: string;
  browser_hash: string;
  org_id: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: string;
}

export interface ServicesTable {
  id: string;
  org_id: string;
  name: string;
  owner_route_id: string | null;
  criticality: string;
  /** JSON list of tags. */
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface ServiceDependenciesTable {
  service_id: string;
  position: number;
  org_id: string;
  vendor: string;
  kind: string;
  /** JSON list of component ids of the vendor. */
  components: string;
  /** JSON list of region codes (src/domain/regions.ts). */
  regions: string;
}

/** Early warning (docs/early-warning.md); components and regions are JSON arrays. */
export interface EwSignalsTable {
  id: string;
  org_id: string;
  vendor: string;
  state: string;
  confidence_pc: number;
  components: string;
  regions: string;
  opened_at: string;
  updated_at: string;
  last_observed_at: string;
  closed_at: string | null;
  incident_id: string | null;
}

export interface EwObservationsTable {
  id: string;
  org_id: string;
  signal_id: string | null;
  source: string;
  vendor: string;
  components: string;
  regions: string;
  strength_pm: number;
  summary: string;
  actor: string;
  external_id: string | null;
  observed_at: string;
}

export interface EwTransitionsTable {
  id: string;
  signal_id: string;
  position: number;
  from_state: string | null;
  to_state: string;
  at: string;
  actor: string;
  reason: string;
}

export interface EwInboundSecretsTable {
  org_id: string;
  /** Sealed with the secrets key. */
  secret: string;
  last_four: string;
  created_by: string | null;
  created_at: string;
}

export interface EwInboundMessagesTable {
  org_id: string;
  message_id: string;
  received_at: string;
}

export interface ProbesTable {
  id: string;
  vendor: string;
  kind: string;
  target: string;
  spec: string;
  retired: number;
  next_run_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  samples: string;
  anomalous: number;
  anomaly_reason: string | null;
  last_sample_at: string | null;
  relax_steps: number;
  relaxed_at: string | null;
  updated_at: string;
  /** Null for a catalog probe; the owning organisation of a private probe. */
  org_id: string | null;
  interval_seconds: number | null;
  credential_name: string | null;
  /** Sealed with the secrets key. */
  credential_value: string | null;
  credential_last_four: string | null;
  created_at: string | null;
}

export interface TelemetryConnectorsTable {
  id: string;
  org_id: string;
  name: string;
  base_url: string;
  token: string | null;
  token_last_four: string | null;
  queries: string;
  enabled: number;
  query_states: string;
  health: string;
  last_error: string | null;
  last_evaluated_at: string | null;
  next_run_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface SourceRepairsTable {
  vendor: string;
  from_sources: string;
  to_sources: string;
  platform: string | null;
  page_name: string | null;
  outcome: string;
  reason: string;
  tried: string;
  checked_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export interface Database {
  probes: ProbesTable;
  source_repairs: SourceRepairsTable;
  telemetry_connectors: TelemetryConnectorsTable;
  services: ServicesTable;
  service_dependencies: ServiceDependenciesTable;
  ew_signals: EwSignalsTable;
  ew_observations: EwObservationsTable;
  ew_transitions: EwTransitionsTable;
  ew_inbound_secrets: EwInboundSecretsTable;
  ew_inbound_messages: EwInboundMessagesTable;
  alert_routes: AlertRoutesTable;
  sso_connections: SsoConnectionsTable;
  sso_domains: SsoDomainsTable;
  sso_pending_logins: SsoPendingLoginsTable;
  org_watchlists: OrgWatchlistsTable;
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  org_watchlist_vendors: OrgWatchlistVendorsTable;
  organisations: OrganisationsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
  vendors: VendorsTable;
  sources: SourcesTable;
  push_hooks: PushHooksTable;
  vendor_status: VendorStatusTable;
  components: ComponentsTable;
  incidents: IncidentsTable;
  maintenances: MaintenancesTable;
  advisories: AdvisoriesTable;
  release_updates: ReleaseUpdatesTable;
  events: EventsTable;
  event_head: EventHeadTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  watchlists: WatchlistsTable;
  watchlist_vendors: WatchlistVendorsTable;
  boards: BoardsTable;
  notification_preferences: NotificationPreferencesTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  store_meta: StoreMetaTable;
  sliding_limits: SlidingLimitsTable;
  alert_cursors: AlertCursorsTable;
  dispatch_holds: DispatchHoldsTable;
  alert_threads: AlertThreadsTable;
  deliveries: DeliveriesTable;
  alert_payloads: AlertPayloadsTable;
  delivery_attempts: DeliveryAttemptsTable;
}
