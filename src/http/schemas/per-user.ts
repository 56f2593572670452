import { type TSchema, Type } from '@sinclair/typebox';
import { ALERT_EVENT_TYPES, EMAIL_DIGESTS, MAX_COMPONENT_FILTERS, MAX_VENDOR_LIST, OPSGENIE_REGIONS, WEBHOOK_FORMATS } from '../../domain/preferences.ts';
import { IMPACTS } from '../../domain/records.ts';
import { CHANGE_KINDS } from '../../domain/alert-rules.ts';
import { DIGEST_DAILY_HOUR } from '../../domain/digests.ts';
import { MAX_LEAD_TIMES } from '../../domain/reminders.ts';
import { DEFAULT_PER_VENDOR, DEFAULT_SECTIONS, FAVORITE_SECTIONS, MAX_FAVORITE_VENDORS, MAX_PER_VENDOR } from '../../services/records/favorites-service.ts';
import { DateTime, Envelope, Nullable, StringEnum, TimePeriodParam, VendorSlug } from './common.ts';
import { ActivityItemSchema, AdvisorySchema, MaintenanceSchema, VendorStatsSchema } from './records.ts';

// Bodies and responses of the per-user endpoints: watchlist, notification
// preferences, dashboard bundle. Request bodies are closed (unknown fields are
// rejected with 400 naming them); every level says so with additionalProperties.

const closed = { additionalProperties: false };

// ---------------------------------------------------------------- watchlist

export const WatchlistResponse = Type.Object(
  {
    success: Type.Boolean(),
    vendors: Type.Array(Type.String(), { description: 'Vendor slugs, in the order they were added' }),
    count: Type.Integer({ minimum: 0, description: 'Number of vendors in the watchlist' }),
    limit: Type.Optional(Type.Integer({ minimum: 0, description: 'Maximum for the plan; absent when unlimited' })),
    remaining: Type.Optional(Type.Integer({ minimum: 0, description: 'Slots left; absent when unlimited' })),
    isUnlimited: Type.Boolean({ description: 'True for plans without a cap' }),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Present when a listed vendor is not monitored (no machine-readable status source): it is kept, but will show no status or alerts',
      }),
    ),
  },
  {
    description: 'Watchlist response',
    examples: [{ success: true, vendors: ['github', 'cloudflare'], count: 2, limit: 10, remaining: 8, isUnlimited: false }],
  },
);

export const WatchlistPutBody = Type.Object(
  {
    vendors: Type.Array(VendorSlug, {
      maxItems: MAX_VENDOR_LIST,
      description: 'The whole new watchlist; duplicates collapse, order is kept',
    }),
  },
  { ...closed, description: 'Replacement watchlist', examples: [{ vendors: ['github', 'cloudflare', 'stripe'] }] },
);

export const VendorPathParams = Type.Object({ vendor: VendorSlug }, closed);

// ---------------------------------------------------------- preferences

const VendorList = (description: string) => Type.Array(VendorSlug, { maxItems: MAX_VENDOR_LIST, description });
const ChannelVendors = Nullable(VendorList('Vendors this channel alerts about; null = the watchlist. Replaces the previous list.'));
const Enabled = Type.Boolean({ description: 'Whether the channel delivers' });

const ComponentName = Type.String({ minLength: 1, maxLength: 200 });
/** Old form (one list, any vendor) or the per-vendor map; both accepted and shown as saved. */
const ComponentFilterSchema = (description: string) =>
  Type.Union(
    [
      Type.Array(ComponentName, { maxItems: MAX_COMPONENT_FILTERS, description: 'Component names of any vendor' }),
      Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }), Type.Array(ComponentName, { maxItems: MAX_COMPONENT_FILTERS }), {
        maxProperties: MAX_COMPONENT_FILTERS,
        description: 'Per vendor: `{"github": ["Actions", "Git Operations"]}`; vendors not in the map are not filtered',
      }),
    ],
    { description },
  );
const ChangesSchema = Type.Array(StringEnum(CHANGE_KINDS), {
  maxItems: CHANGE_KINDS.length * 2,
  description: '`created`, `status_changed` (incl. maintenance started), `resolved` (incl. maintenance completed), `updated` (new text, same status)',
});
const ChannelRulesView = Nullable(
  Type.Object(
    {
      changes: ChangesSchema,
      min_impact: StringEnum(IMPACTS),
      components: ComponentFilterSchema('Component subscription of this channel; empty = all components'),
    },
    { description: 'This channel\'s own rules (docs/alerts.md "What counts"); null = `content_filters`' },
  ),
);
const ChannelRulesPatch = Nullable(
  Type.Partial(
    Type.Object({
      changes: ChangesSchema,
      min_impact: StringEnum(IMPACTS),
      components: ComponentFilterSchema("Replaces the channel's component subscription; empty = all components"),
    }),
    {
      additionalProperties: false,
      description:
        'Rules of this channel; null = back to `content_filters`. Unsent fields default to changes created, status_changed, resolved; any impact; all components',
    },
  ),
);
const QuietHoursFields = {
  enabled: Type.Boolean(),
  start: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local time HH:MM' }),
  end: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local time HH:MM; before `start` = over midnight' }),
};
const LeadTimes = Type.Array(Type.String({ pattern: '^[1-9][0-9]{0,4}[mhd]$' }), {
  maxItems: MAX_LEAD_TIMES,
  description: 'Lead times before a maintenance window starts, e.g. `["24h", "1h"]` (m, h, d; at most 14d)',
});
const TimeZoneSchema = Type.String({
  maxLength: 64,
  description: `IANA time zone of digests (daily at ${DIGEST_DAILY_HOUR}:00 local), quiet hours and reminders`,
});
const SlackChannelId = Nullable(
  Type.String({ maxLength: 24, description: 'Channel id (C…, G…) in the connected workspace; null = direct messages to the member who installed the app' }),
);

/** The preferences as the API shows them (secrets masked). */
const PreferencesSchema = Type.Object(
  {
    in_app: Type.Object({ enabled: Enabled }),
    email: Type.Object({
      enabled: Enabled,
      address: Nullable(Type.String({ format: 'email', description: "null = the account's e-mail address" })),
      digest: StringEnum(EMAIL_DIGESTS, { description: '`off` = one message per alert; `hourly`/`daily` = grouped' }),
      alert_on: ChannelRulesView,
      address_status: StringEnum(['confirmed', 'pending'] as const, {
        description:
          "Read-only. `confirmed`: the account's own address, or one whose confirmation link was followed. `pending`: a confirmation link was sent to `address`; until it is followed no alert (and no test alert) is sent by e-mail. Ignored on update.",
      }),
    }),
    slack: Type.Object({ enabled: Enabled, channel: SlackChannelId, vendors: ChannelVendors, alert_on: ChannelRulesView }),
    slack_connection: Type.Object(
      {
        connected: Type.Boolean(),
        team: Nullable(Type.String({ description: 'Workspace name' })),
        connected_at: Nullable(DateTime()),
        team_id: Type.Optional(Nullable(Type.String({ description: 'Workspace id (T…)' }))),
        user_id: Type.Optional(Nullable(Type.String({ description: 'Member who installed the app: direct messages go to them' }))),
        bot_user_id: Type.Optional(Nullable(Type.String({ description: "The app's bot user in the workspace" }))),
      },
      {
        description:
          'Read-only: the Slack workspace connected through "Add to Slack" (GET /api/v1/slack/install); ignored on update. Its bot token is stored encrypted and never shown.',
      },
    ),
    webhook: Type.Object({
      enabled: Enabled,
      url: Nullable(Type.String({ format: 'uri', description: 'https URL receiving the alerts' })),
      format: StringEnum(WEBHOOK_FORMATS, { description: '`standard` (Standard Webhooks), `discord` or `slack` (incoming webhook, Block Kit)' }),
      vendors: ChannelVendors,
      alert_on: ChannelRulesView,
      secret: Nullable(
        Type.String({
          description: 'Signing secret: `whsec_…` in clear only in the response that generated it, otherwise masked (`****abcd`)',
        }),
      ),
      previous_secret_expires_at: Type.Optional(DateTime({ description: 'After a rotation: until when the previous secret also signs deliveries' })),
    }),
    pagerduty: Type.Object({
      enabled: Enabled,
      routing_key: Nullable(Type.String({ description: 'Masked (`****abcd`)' })),
      vendors: ChannelVendors,
      alert_on: ChannelRulesView,
    }),
    teams: Type.Object({
      enabled: Enabled,
      webhook_url: Nullable(Type.String({ description: 'Microsoft Teams Workflows webhook URL (a secret): masked (`****abcd`)' })),
      vendors: ChannelVendors,
      alert_on: ChannelRulesView,
    }),
    google_chat: Type.Object({
      enabled: Enabled,
      webhook_url: Nullable(Type.String({ description: 'Google Chat space webhook URL (holds key and token): masked (`****abcd`)' })),
      vendors: ChannelVendors,
      alert_on: ChannelRulesView,
    }),
    opsgenie: Type.Object({
      enabled: Enabled,
      api_key: Nullable(Type.String({ description: 'API integration key: masked (`****abcd`)' })),
      region: StringEnum(OPSGENIE_REGIONS, { description: '`us` (api.opsgenie.com) or `eu` (api.eu.opsgenie.com)' }),
      vendors: ChannelVendors,
      alert_on: ChannelRulesView,
    }),
    rss: Type.Object({
      enabled: Enabled,
      feed_url: Nullable(Type.String({ description: 'Read-only. Full URL only in the response that created the token, otherwise masked' })),
    }),
    newsletter: Type.Object({ enabled: Enabled }),
    muted_vendors: Type.Array(Type.String(), { description: 'Vendors that never alert, whatever the channel' }),
    content_filters: Type.Object({
      min_impact: StringEnum(IMPACTS, { description: 'Lowest incident impact that alerts' }),
      event_types: Type.Array(StringEnum(ALERT_EVENT_TYPES)),
      components: ComponentFilterSchema('Component names to alert about (a list for any vendor, or per vendor); empty = all'),
    }),
    timezone: TimeZoneSchema,
    quiet_hours: Type.Object(QuietHoursFields, {
      description: 'Chat and e-mail alerts are held during these local hours and sent as one summary when they end; paging channels are never held',
    }),
    maintenance_reminders: Type.Object(
      {
        lead_times: LeadTimes,
        started: Type.Boolean({ description: 'Alert when a window starts' }),
        completed: Type.Boolean({ description: 'Alert when a window completes' }),
      },
      { description: 'Reminders before maintenance windows start' },
    ),
  },
  { additionalProperties: true, description: 'Notification preferences (secrets masked)' },
);

const examplePreferences = {
  in_app: { enabled: true },
  email: { enabled: true, address: 'oncall@example.com', digest: 'daily', alert_on: null, address_status: 'confirmed' },
  slack: {
    enabled: true,
    channel: 'C0ALERTS1',
    vendors: null,
    alert_on: { changes: ['created', 'status_changed', 'resolved'], min_impact: 'major', components: [] },
  },
  slack_connection: { connected: false, team: null, connected_at: null },
  webhook: { enabled: true, url: 'https://hooks.example.com/vendor-status', format: 'standard', vendors: null, alert_on: null, secret: '****Zk4=' },
  pagerduty: { enabled: false, routing_key: null, vendors: null, alert_on: null },
  teams: { enabled: false, webhook_url: null, vendors: null, alert_on: null },
  google_chat: { enabled: true, webhook_url: '****p8Q%3D', vendors: ['github'], alert_on: null },
  opsgenie: { enabled: false, api_key: null, region: 'us', vendors: null, alert_on: null },
  rss: { enabled: true, feed_url: '/api/v1/feeds/****x9Qa.rss' },
  newsletter: { enabled: false },
  muted_vendors: ['zoom'],
  content_filters: { min_impact: 'minor', event_types: ['incident.created', 'incident.resolved'], components: { github: ['Actions', 'Git Operations'] } },
  timezone: 'Europe/Berlin',
  quiet_hours: { enabled: true, start: '22:00', end: '07:00' },
  maintenance_reminders: { lead_times: ['24h', '1h'], started: true, completed: true },
};

export const PreferencesResponse = Type.Object(
  {
    success: Type.Boolean(),
    preferences: PreferencesSchema,
    shownOnce: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Fields shown in clear in this response only (a secret just generated): store them now',
      }),
    ),
  },
  { description: 'Notification preferences response', examples: [{ success: true, preferences: examplePreferences }] },
);

const Partial = <T extends Record<string, TSchema>>(props: T, description?: string) =>
  Type.Partial(Type.Object(props), { ...closed, ...(description ? { description } : {}) });

/** PUT body: any subset; omitted fields stay as they are. */
export const PreferencesPatchBody = Partial(
  {
    in_app: Partial({ enabled: Type.Boolean() }),
    email: Partial({
      enabled: Type.Boolean(),
      address: Nullable(Type.String({ format: 'email', maxLength: 254 })),
      digest: StringEnum(EMAIL_DIGESTS),
      address_status: Type.Unsafe<unknown>({ description: 'Read-only: accepted and ignored' }),
      alert_on: ChannelRulesPatch,
    }),
    slack: Partial({ enabled: Type.Boolean(), channel: SlackChannelId, vendors: ChannelVendors, alert_on: ChannelRulesPatch }),
    slack_connection: Type.Unsafe<unknown>({ description: 'Read-only: accepted and ignored' }),
    webhook: Partial({
      enabled: Type.Boolean(),
      url: Nullable(Type.String({ maxLength: 2048, description: 'https URL; null removes the webhook and its secret' })),
      format: StringEnum(WEBHOOK_FORMATS, {
        description: 'Default: `discord` for Discord webhook URLs, `slack` for Slack incoming webhooks (hooks.slack.com), else `standard`',
      }),
      vendors: ChannelVendors,
      alert_on: ChannelRulesPatch,
      secret: Type.Unsafe<unknown>({ description: 'Read-only (generated): accepted and ignored; rotate it with POST …/webhook/rotate-secret' }),
      previous_secret_expires_at: Type.Unsafe<unknown>({ description: 'Read-only: accepted and ignored' }),
    }),
    pagerduty: Partial({
      enabled: Type.Boolean(),
      routing_key: Nullable(Type.String({ maxLength: 64, description: 'Events API v2 integration key (32 characters); the masked value means unchanged' })),
      vendors: ChannelVendors,
      alert_on: ChannelRulesPatch,
    }),
    teams: Partial({
      enabled: Type.Boolean(),
      webhook_url: Nullable(
        Type.String({ maxLength: 2048, description: 'Workflows webhook URL ("When a Teams webhook request is received"); the masked value means unchanged' }),
      ),
      vendors: ChannelVendors,
      alert_on: ChannelRulesPatch,
    }),
    google_chat: Partial({
      enabled: Type.Boolean(),
      webhook_url: Nullable(Type.String({ maxLength: 2048, description: 'The space webhook URL; the masked value means unchanged' })),
      vendors: ChannelVendors,
      alert_on: ChannelRulesPatch,
    }),
    opsgenie: Partial({
      enabled: Type.Boolean(),
      api_key: Nullable(Type.String({ maxLength: 64, description: 'API integration key (a UUID); the masked value means unchanged' })),
      region: StringEnum(OPSGENIE_REGIONS),
      vendors: ChannelVendors,
      alert_on: ChannelRulesPatch,
    }),
    rss: Partial({
      enabled: Type.Boolean({ description: 'The first switch-on creates the personal feed URL' }),
      feed_url: Type.Unsafe<unknown>({ description: 'Read-only: accepted and ignored' }),
    }),
    newsletter: Partial({ enabled: Type.Boolean() }),
    muted_vendors: VendorList('Replaces the muted list'),
    content_filters: Partial({
      min_impact: StringEnum(IMPACTS),
      event_types: Type.Array(StringEnum(ALERT_EVENT_TYPES), { minItems: 1, maxItems: ALERT_EVENT_TYPES.length * 2 }),
      components: ComponentFilterSchema('Replaces the component filter: a list (any vendor) or a map per vendor'),
    }),
    timezone: TimeZoneSchema,
    quiet_hours: Partial(QuietHoursFields),
    maintenance_reminders: Partial({ lead_times: LeadTimes, started: Type.Boolean(), completed: Type.Boolean() }),
  },
  'Partial notification preferences: send only what changes',
);
(PreferencesPatchBody as { examples?: unknown[] }).examples = [
  { webhook: { enabled: true, url: 'https://hooks.example.com/vendor-status' }, muted_vendors: ['zoom'] },
  { email: { enabled: true, digest: 'daily' }, content_filters: { min_impact: 'major' } },
  {
    timezone: 'America/New_York',
    quiet_hours: { enabled: true, start: '22:00', end: '07:00' },
    content_filters: { components: { github: ['Actions', 'Git Operations'] } },
    slack: { alert_on: { changes: ['created', 'resolved'], min_impact: 'major' } },
    maintenance_reminders: { lead_times: ['24h', '1h'] },
  },
];

// ------------------------------------------------------------- dashboard

export const FavoritesBody = Type.Object(
  {
    vendors: Type.Array(VendorSlug, {
      minItems: 1,
      maxItems: MAX_FAVORITE_VENDORS,
      description: `Vendor slugs, 1..${MAX_FAVORITE_VENDORS}; duplicates collapse`,
    }),
    sections: Type.Optional(
      Type.Array(StringEnum(FAVORITE_SECTIONS), {
        minItems: 1,
        maxItems: FAVORITE_SECTIONS.length * 2,
        description: `Sections to build; default ${DEFAULT_SECTIONS.join(', ')}`,
      }),
    ),
    timePeriod: Type.Optional(TimePeriodParam),
    perVendorLimit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PER_VENDOR,
        description: `Items per vendor in list sections, 1..${MAX_PER_VENDOR} (default ${DEFAULT_PER_VENDOR})`,
      }),
    ),
  },
  {
    ...closed,
    description: 'Dashboard favorites request body',
    examples: [{ vendors: ['github', 'cloudflare', 'openai'], sections: ['stats', 'recentActivity'], timePeriod: '7d' }],
  },
);

const PerVendor = (item: TSchema, description: string) => Type.Record(Type.String(), item, { description: `${description}, keyed by vendor slug` });

const FavoritesBundleSchema = Type.Object(
  {
    vendors: Type.Array(Type.String(), { description: 'The vendors of the bundle (de-duplicated, in request order)' }),
    sections: Type.Array(StringEnum(FAVORITE_SECTIONS), { description: 'The sections built' }),
    perVendorLimit: Type.Integer(),
    stats: Type.Optional(PerVendor(Type.Ref(VendorStatsSchema), 'Statistics over the window')),
    maintenance: Type.Optional(PerVendor(Type.Array(Type.Ref(MaintenanceSchema)), 'Maintenance windows not yet completed, soonest first')),
    advisories: Type.Optional(PerVendor(Type.Array(Type.Ref(AdvisorySchema)), 'Advisories in the window, newest first')),
    recentActivity: Type.Optional(PerVendor(Type.Array(ActivityItemSchema), 'Incidents, maintenance, advisories and updates, newest first')),
  },
  { description: 'Dashboard bundle: sections, each keyed by vendor' },
);

export const FavoritesResponse = {
  ...Envelope(FavoritesBundleSchema, 'One item: the bundle'),
  examples: [
    {
      success: true,
      items: [
        {
          vendors: ['github', 'cloudflare'],
          sections: ['stats', 'recentActivity'],
          perVendorLimit: 10,
          stats: {
            github: {
              vendor: 'github',
              timePeriod: '7d',
              incidentCount: 2,
              byImpact: { none: 0, minor: 1, major: 1, critical: 0 },
              mttrMinutes: 42,
              longestIncidentMinutes: 61,
              uptimePercent: 99.64,
              observedPercent: 100,
              maintenanceCount: 0,
              lastIncidentAt: '2026-03-01T09:12:00.000Z',
              badge: 'good',
            },
            cloudflare: {
              vendor: 'cloudflare',
              timePeriod: '7d',
              incidentCount: 0,
              byImpact: { none: 0, minor: 0, major: 0, critical: 0 },
              mttrMinutes: null,
              longestIncidentMinutes: null,
              uptimePercent: 100,
              observedPercent: 100,
              maintenanceCount: 1,
              lastIncidentAt: null,
              badge: 'excellent',
            },
          },
          recentActivity: {
            github: [
              {
                kind: 'incident',
                at: '2026-03-01T10:13:00.000Z',
                id: 'github:abc123',
                vendor: 'github',
                vendorName: 'GitHub',
                title: 'Degraded performance for Actions',
              },
            ],
            cloudflare: [],
          },
        },
      ],
      fetchedAt: '2026-03-01T12:00:00.000Z',
      source: 'live',
      lastUpdated: '2026-03-01T11:59:30.000Z',
      dataWindow: { requested: '7d', applied: '7d', capped: false, since: '2026-02-22T12:00:00.000Z' },
    },
  ],
};
