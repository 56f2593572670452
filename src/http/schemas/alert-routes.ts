import { DATADOG_SITES } from '../../domain/channel-targets.ts';
import { MAX_MAPPED_COMPONENTS, STATUS_PAGE_PRODUCTS } from '../../domain/status-page-push.ts';
import { Type } from '@sinclair/typebox';
import { MAX_EMAIL_RECIPIENTS, MAX_ROUTE_COMPONENTS, MAX_ROUTE_SERVICES, MAX_ROUTE_VENDORS, ROUTE_CHANNELS, ROUTE_KINDS } from '../../domain/alert-routes.ts';
import { MAX_SERVICE_NAME, SERVICE_NAME_PATTERN } from '../../domain/team-services.ts';
import { OPSGENIE_REGIONS, WEBHOOK_FORMATS } from '../../domain/preferences.ts';
import { IMPACTS } from '../../domain/records.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';
import { OrgName } from './orgs.ts';

// Alert routes of an organisation (docs/alert-routes.md). A destination is one object per
// channel, told apart by `channel`; answers show it masked.

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https URL (checked against the outbound URL rules)' });

const ComponentMappings = Type.Array(
  Type.Object(
    {
      vendor: Type.String({ minLength: 1, maxLength: 64, description: 'Vendor id, e.g. github' }),
      component: Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The vendor's component: its id or its name as the vendor's components list shows it",
      }),
      pageComponentId: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the component of your page it drives' }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: MAX_MAPPED_COMPONENTS, description: 'Which vendor component drives which component of your page' },
);

export const DestinationInput = Type.Union(
  [
    Type.Object(
      {
        channel: Type.Literal('webhook'),
        url: Url,
        format: Type.Optional(StringEnum(WEBHOOK_FORMATS, { description: 'Body format; default standard (signed)' })),
      },
      { additionalProperties: false, title: 'Webhook destination' },
    ),
    Type.Object(
      { channel: Type.Literal('pagerduty'), routingKey: Type.String({ minLength: 1, maxLength: 64, description: 'Events API v2 integration key' }) },
      { additionalProperties: false, title: 'PagerDuty destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('opsgenie'),
        apiKey: Type.String({ minLength: 1, maxLength: 64, description: 'API integration key (a UUID)' }),
        region: StringEnum(OPSGENIE_REGIONS),
      },
      { additionalProperties: false, title: 'Opsgenie destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('jsm'),
        apiKey: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'Key of a JSM Operations "API" integration (a UUID); Opsgenie\'s successor, one host for every region',
        }),
      },
      { additionalProperties: false, title: 'Jira Service Management destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('incident_io'),
        url: Type.String({ minLength: 1, maxLength: 2048, description: 'The HTTP alert source URL, https://api.incident.io/v2/alert_events/http/{config id}' }),
        token: Type.String({ minLength: 1, maxLength: 512, description: "The alert source's secret token (sent as a bearer token)" }),
      },
      { additionalProperties: false, title: 'incident.io destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('datadog'),
        site: StringEnum(DATADOG_SITES, { description: "The organisation's Datadog site" }),
        apiKey: Type.String({ minLength: 1, maxLength: 64, description: 'A Datadog API key (32 hexadecimal characters)' }),
      },
      { additionalProperties: false, title: 'Datadog destination' },
    ),
    Type.Object({ channel: Type.Literal('mattermost'), url: Url }, { additionalProperties: false, title: 'Mattermost incoming webhook destination' }),
    Type.Object(
      {
        channel: Type.Literal('telegram'),
        botToken: Type.String({ minLength: 1, maxLength: 128, description: 'The bot token from BotFather' }),
        chatId: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'A chat id (e.g. -1001234567890) or a public channel @username; the bot must be a member',
        }),
      },
      { additionalProperties: false, title: 'Telegram destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('grafana'),
        url: Type.String({
          minLength: 1,
          maxLength: 2048,
          description: 'Base URL of the Grafana instance, e.g. https://grafana.example.com (annotations go to /api/annotations)',
        }),
        token: Type.String({
          minLength: 1,
          maxLength: 512,
          description: 'A service account token with the annotations:create and annotations:write permissions (sent as a bearer token)',
        }),
        dashboardUid: Type.Optional(
          Nullable(
            Type.String({
              minLength: 1,
              maxLength: 40,
              description: 'Annotate this dashboard; absent or null = an organisation annotation, shown on dashboards by its tags',
            }),
          ),
        ),
      },
      { additionalProperties: false, title: 'Grafana annotations destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('servicenow'),
        url: Type.String({
          minLength: 1,
          maxLength: 2048,
          description: 'The instance, e.g. https://acme.service-now.com (events go to /api/global/em/jsonv2)',
        }),
        username: Type.String({ minLength: 1, maxLength: 100, description: 'A user with the evt_mgmt_integration role' }),
        password: Type.String({ minLength: 1, maxLength: 256, description: "That user's password (basic auth)" }),
      },
      { additionalProperties: false, title: 'ServiceNow Event Management destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('firehydrant'),
        url: Type.String({
          minLength: 1,
          maxLength: 2048,
          description: 'The ingest URL of a generic webhook event source, https://signals.firehydrant.com/v1/process/{token}',
        }),
      },
      { additionalProperties: false, title: 'FireHydrant Signals destination' },
    ),
    Type.Object(
      {
        channel: Type.Literal('rootly'),
        apiKey: Type.String({ minLength: 1, maxLength: 512, description: 'A Rootly API key (global or team) allowed to create and resolve alerts' }),
      },
      { additionalProperties: false, title: 'Rootly destination' },
    ),
    ...STATUS_PAGE_PRODUCTS.map((product) =>
      Type.Object(
        {
          channel: Type.Literal(product),
          pageId: Type.String({ minLength: 1, maxLength: 64, description: "Your page's id" }),
          apiKey: Type.String({
            minLength: 1,
            maxLength: 512,
            description: product === 'statuspage' ? 'A Statuspage API key (sent as OAuth <key>)' : 'An Instatus API key (sent as a bearer token)',
          }),
          components: ComponentMappings,
        },
        { additionalProperties: false, title: product === 'statuspage' ? 'Atlassian Statuspage (own page) destination' : 'Instatus (own page) destination' },
      ),
    ),
    Type.Object(
      {
        channel: Type.Literal('slack'),
        conversation: Type.String({ minLength: 1, maxLength: 32, description: "Channel id (C…, G…) in the organisation's installed workspace" }),
      },
      { additionalProperties: false, title: 'Slack destination' },
    ),
    Type.Object({ channel: Type.Literal('teams'), url: Url }, { additionalProperties: false, title: 'Microsoft Teams Workflows destination' }),
    Type.Object({ channel: Type.Literal('google_chat'), url: Url }, { additionalProperties: false, title: 'Google Chat destination' }),
    Type.Object(
      {
        channel: Type.Literal('email'),
        to: Type.Array(Type.String({ minLength: 3, maxLength: 254 }), {
          minItems: 1,
          maxItems: MAX_EMAIL_RECIPIENTS,
          description: "Addresses of the organisation's members",
        }),
      },
      { additionalProperties: false, title: 'E-mail destination' },
    ),
  ],
  { description: 'Where the route sends; one of the channel shapes, told apart by `channel`' },
);

const Clock = Type.String({ minLength: 1, maxLength: 5, description: 'Local time HH:MM (24 h)' });

export const FiltersInput = Type.Object(
  {
    watchlistId: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 64, description: "A named watchlist's id; null = the organisation's watchlist" })),
    ),
    vendors: Type.Optional(
      Nullable(
        Type.Array(Type.String({ pattern: SLUG_PATTERN }), {
          maxItems: MAX_ROUTE_VENDORS,
          description: 'Vendor slugs; when set, the route is scoped by them, not by a watchlist',
        }),
      ),
    ),
    components: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: PLAIN_TEXT_PATTERN }), {
        maxItems: MAX_ROUTE_COMPONENTS,
        description: 'Only events naming one of these components (case-insensitive); empty = every component',
      }),
    ),
    minImpact: Type.Optional(StringEnum(IMPACTS, { description: 'Lowest impact of an incident that alerts' })),
    kinds: Type.Optional(
      Type.Array(StringEnum(ROUTE_KINDS), {
        minItems: 1,
        maxItems: ROUTE_KINDS.length,
        description:
          'Kinds of change that alert; `early_warning` (off by default) adds our early-warning signals about the vendors in scope (docs/alerts.md "Early warning")',
      }),
    ),
    maintenance: Type.Optional(Type.Boolean({ description: 'Maintenance windows alert too' })),
    quietHours: Type.Optional(
      Nullable(
        Type.Object(
          { start: Clock, end: Clock, timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' }) },
          { additionalProperties: false, description: 'Chat and e-mail alerts in this daily range are sent when it ends; paging channels are never held' },
        ),
      ),
    ),
    onlyAffectingServices: Type.Optional(
      Type.Boolean({ description: 'Only events that hit one of the organisation\'s services (docs/alert-routes.md "Routing by service")' }),
    ),
    services: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_SERVICE_NAME, pattern: SERVICE_NAME_PATTERN }), {
        maxItems: MAX_ROUTE_SERVICES,
        description: 'Only events that hit one of these services (by name); empty = no such condition',
      }),
    ),
  },
  { additionalProperties: false },
);

export const FiltersSchema = Type.Object({
  watchlistId: Nullable(Type.String()),
  vendors: Nullable(Type.Array(Type.String())),
  components: Type.Array(Type.String()),
  minImpact: StringEnum(IMPACTS),
  kinds: Type.Array(StringEnum(ROUTE_KINDS)),
  maintenance: Type.Boolean(),
  quietHours: Nullable(Type.Object({ start: Type.String(), end: Type.String(), timezone: Type.String() })),
  onlyAffectingServices: Type.Boolean(),
  services: Type.Array(Type.String()),
});

export const AlertRouteSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  disabledReason: Nullable(
    Type.String({ description: 'Why a delivery switched the route off (its destination answered that it is gone, or refused our credentials)' }),
  ),
  channel: StringEnum(ROUTE_CHANNELS),
  destination: Type.Object(
    {
      channel: StringEnum(ROUTE_CHANNELS),
      url: Type.Optional(Type.String({ description: 'Scheme and host only; the path is a secret' })),
      format: Type.Optional(StringEnum(WEBHOOK_FORMATS)),
      secret: Type.Optional(Type.String({ description: 'Webhook signing secret: in full only in the answer that made or rotated it, else masked' })),
      routingKey: Type.Optional(Type.String({ description: 'Masked' })),
      apiKey: Type.Optional(Type.String({ description: 'Masked' })),
      region: Type.Optional(StringEnum(OPSGENIE_REGIONS)),
      conversation: Type.Optional(Type.String()),
      to: Type.Optional(Type.Array(Type.String())),
      token: Type.Optional(Type.String({ description: 'Masked' })),
      site: Type.Optional(StringEnum(DATADOG_SITES)),
      botToken: Type.Optional(Type.String({ description: 'Masked' })),
      chatId: Type.Optional(Type.String()),
      dashboardUid: Type.Optional(Nullable(Type.String())),
      username: Type.Optional(Type.String()),
      password: Type.Optional(Type.String({ description: 'Masked' })),
      pageId: Type.Optional(Type.String()),
      components: Type.Optional(Type.Array(Type.Object({ vendor: Type.String(), component: Type.String(), pageComponentId: Type.String() }))),
    },
    { description: 'The destination, masked' },
  ),
  filters: FiltersSchema,
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const NewAlertRoute = Type.Object(
  { name: OrgName, enabled: Type.Optional(Type.Boolean()), destination: DestinationInput, filters: Type.Optional(FiltersInput) },
  { additionalProperties: false },
);

export const AlertRouteChange = Type.Object(
  {
    name: Type.Optional(OrgName),
    enabled: Type.Optional(Type.Boolean()),
    destination: Type.Optional(DestinationInput),
    filters: Type.Optional(FiltersInput),
    rotateSecret: Type.Optional(Type.Boolean({ description: 'Make a new webhook signing secret (shown once in this answer)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RouteParams = Type.Object({ orgId: IdParam('Id of the organisation'), routeId: IdParam('Id of the alert route') });
