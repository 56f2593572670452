import { type TSchema, Type } from '@sinclair/typebox';
import { ALERT_EVENT_TYPES } from '../../domain/preferences.ts';
import { Nullable, StringEnum } from './common.ts';
import { DIGEST_EVENT_TYPE, HELD_EVENT_TYPE, QUIET_EVENT_TYPE, REMINDER_EVENT_TYPE } from '../../domain/alerts.ts';
import { EARLY_WARNING_KIND, SIGNAL_ALERT_TYPES } from '../../domain/signal-alerts.ts';
import { SIGNAL_STATES } from '../../domain/early-warning.ts';

// What the alert channels send (docs/alerts.md, "Payloads in the OpenAPI document"), described so a
// receiver can be generated from the OpenAPI document. OpenAPI 3.0 has no
// `webhooks` object: the operations are listed under the `x-webhooks`
// extension, their bodies are components schemas. These describe the bodies the
// channels in src/alerts/channels/ build; test/integration/chat-channels.test.ts
// validates real sent bodies against them.

const open = { additionalProperties: true };
const Str = (description?: string, o: object = {}) => Type.String({ ...(description ? { description } : {}), ...o });
const Obj = (props: Record<string, TSchema>, description: string) => Type.Object(props, { ...open, description });

/** Flood-cap and quiet-hour summaries (and e-mail digests) in a body's `data`. */
const AlertSummary = Obj(
  {
    id: Str('Summary id (same as the delivery id)'),
    title: Str('e.g. "3 alerts were held during quiet hours: github (2), aws (1)"'),
    status: StringEnum(['held', 'digest'] as const),
    windowStart: Type.Optional(Str('Flood cap: window start', { format: 'date-time' })),
    windowEnd: Type.Optional(Str('Flood cap: window end', { format: 'date-time' })),
    held: Type.Optional(Type.Integer({ description: 'Flood cap: alerts held back' })),
    periodStart: Type.Optional(Str('Quiet hours, digest: first alert gathered (quiet) or period start (digest)', { format: 'date-time' })),
    periodEnd: Type.Optional(Str('Quiet hours, digest: when it was sent', { format: 'date-time' })),
    count: Type.Optional(Type.Integer({ description: 'Quiet hours, digest: alerts gathered' })),
    items: Type.Optional(
      Type.Array(
        Obj(
          {
            vendor: Str(),
            entityId: Str(),
            title: Str(),
            status: Str(),
            impact: Str(),
            changes: Type.Array(Str()),
            lastAt: Str(undefined, { format: 'date-time' }),
          },
          'One record and what changed about it in the period',
        ),
      ),
    ),
  },
  'A summary of several alerts (flood cap, quiet hours, digest)',
);

/** An early-warning signal's transition in a body's `data` (docs/alerts.md "Early warning"). */
const SignalAlert = Obj(
  {
    id: Str('The signal id'),
    kind: StringEnum([EARLY_WARNING_KIND] as const, { description: "Our own suspicion, never the vendor's status" }),
    vendor: Str(),
    vendorName: Str(),
    title: Str('The transition in words, e.g. "suspected problem: our early warning, not the vendor\'s status"'),
    status: StringEnum(SIGNAL_STATES, { description: 'The state the signal moved to' }),
    impact: StringEnum(['unknown'] as const, { description: "A suspicion measures no impact of the vendor's" }),
    components: Type.Array(Str()),
    regions: Type.Array(Str()),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    openedAt: Str(undefined, { format: 'date-time' }),
    lastObservedAt: Str(undefined, { format: 'date-time' }),
    incidentId: Nullable(Str("The vendor's incident that confirmed it")),
    url: Type.Null(),
    transition: Obj(
      { from: Nullable(StringEnum(SIGNAL_STATES)), to: StringEnum(SIGNAL_STATES), at: Str(undefined, { format: 'date-time' }), actor: Str(), reason: Str() },
      'The transition this alert is about',
    ),
    evidence: Type.Array(
      Obj(
        { source: Str(), strength: Type.Number({ minimum: 0, maximum: 1 }), summary: Str(), observedAt: Str(undefined, { format: 'date-time' }) },
        'One observation, newest first',
      ),
      { maxItems: 5 },
    ),
    updates: Type.Array(Obj({ status: Str(), body: Str(), createdAt: Str(undefined, { format: 'date-time' }) }, 'The transition in words'), { maxItems: 1 }),
  },
  'An early-warning signal at one of its transitions (suspected, confirmed, cleared, dismissed)',
);

export const StandardWebhookBody = Type.Object(
  {
    type: StringEnum([...ALERT_EVENT_TYPES, REMINDER_EVENT_TYPE, HELD_EVENT_TYPE, QUIET_EVENT_TYPE, DIGEST_EVENT_TYPE, ...SIGNAL_ALERT_TYPES] as const, {
      description: `Event type; \`${REMINDER_EVENT_TYPE}\` carries the Maintenance with \`reminder {leadTime, startsAt}\`; \`${HELD_EVENT_TYPE}\` and \`${QUIET_EVENT_TYPE}\` carry a summary; \`early_warning.*\` carry a signal at a transition, our suspicion and not the vendor's status (docs/alerts.md)`,
    }),
    timestamp: Str('When the change was detected (ISO 8601)', { format: 'date-time' }),
    data: Type.Union([Type.Ref('Incident'), Type.Ref('Maintenance'), AlertSummary, SignalAlert], {
      description: 'The record as GET /incidents or /maintenance serves it; `updatesTruncated: true` when old updates were cut to stay under 20 kB',
    }),
    affectedServices: Type.Optional(
      Type.Array(
        Type.Object({
          serviceId: Str(),
          serviceName: Str(),
          criticality: StringEnum(['critical', 'high', 'medium', 'low'] as const),
          confidence: StringEnum(['high', 'medium', 'low'] as const),
          reasons: Type.Array(Str()),
          via: Str('The dependency: the vendor\'s name, then the components or regions matched ("Stripe: API")'),
        }),
        {
          maxItems: 50,
          description:
            "The receiving organisation's services the alert may hit, most certain and most critical first (the impact rules of docs/services.md); present only when the organisation has services, empty when none is hit",
        },
      ),
    ),
    affects: Type.Optional(Nullable(Str('The same in words: "affects checkout-api (critical) via Stripe: API"; null when none is hit'))),
  },
  {
    ...open,
    $id: 'StandardWebhookBody',
    description:
      'Standard Webhooks body. Headers: `webhook-id` (delivery id, same on retries), `webhook-timestamp` (unix seconds), `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` per secret, space-separated during a rotation).',
  },
);

const Text = (type: 'plain_text' | 'mrkdwn') => Obj({ type: Type.Literal(type), text: Str() }, `${type} text object`);
const SlackBlock = Type.Object(
  {
    type: StringEnum(['header', 'section', 'context'] as const),
    text: Type.Optional(Type.Union([Text('plain_text'), Text('mrkdwn')])),
    fields: Type.Optional(Type.Array(Text('mrkdwn'), { maxItems: 10 })),
    elements: Type.Optional(Type.Array(Text('mrkdwn'), { maxItems: 10 })),
  },
  { ...open, description: 'Block Kit block' },
);
const SlackMessage = Type.Object(
  {
    text: Str('Plain fallback for notifications', { maxLength: 3000 }),
    blocks: Type.Array(SlackBlock, { maxItems: 50 }),
    channel: Type.Optional(Str('Web API only: channel or DM conversation id')),
    thread_ts: Type.Optional(Str('Web API only: the first message of the incident, for later events')),
    unfurl_links: Type.Boolean(),
    unfurl_media: Type.Boolean(),
  },
  {
    ...open,
    $id: 'SlackMessage',
    description:
      'Slack message: the body of an incoming webhook (`webhook.format: slack`), and the arguments of `chat.postMessage` (form-encoded, `blocks` as JSON) for the Slack app.',
  },
);

const TeamsMessage = Type.Object(
  {
    type: Type.Literal('message'),
    attachments: Type.Array(
      Type.Object(
        {
          contentType: Type.Literal('application/vnd.microsoft.card.adaptive'),
          contentUrl: Type.Null(),
          content: Type.Object(
            {
              $schema: Str(),
              type: Type.Literal('AdaptiveCard'),
              version: Type.Literal('1.4'),
              body: Type.Array(Obj({ type: Str('TextBlock or FactSet') }, 'Card element')),
              actions: Type.Optional(
                Type.Array(Obj({ type: Type.Literal('Action.OpenUrl'), title: Str(), url: Str(undefined, { format: 'uri' }) }, 'Open the status page')),
              ),
            },
            { ...open, description: 'Adaptive Card' },
          ),
        },
        open,
      ),
      { minItems: 1, maxItems: 1 },
    ),
  },
  { ...open, $id: 'TeamsMessage', description: 'Microsoft Teams Workflows webhook body: a message envelope carrying one Adaptive Card' },
);

const GoogleChatMessage = Type.Object(
  {
    text: Str('Notification text', { maxLength: 4000 }),
    cardsV2: Type.Array(
      Type.Object(
        {
          cardId: Str(),
          card: Obj(
            {
              header: Obj({ title: Str(), subtitle: Str() }, 'Card header'),
              sections: Type.Array(Obj({ widgets: Type.Array(Obj({}, 'decoratedText, textParagraph or buttonList widget')) }, 'Card section')),
            },
            'GoogleAppsCardV1Card',
          ),
        },
        open,
      ),
      { minItems: 1, maxItems: 1 },
    ),
    thread: Obj({ threadKey: Str('`vendor:recordId`: the same for every event of one incident', { maxLength: 4000 }) }, 'Thread of the incident'),
  },
  {
    ...open,
    $id: 'GoogleChatMessage',
    description: 'Google Chat space webhook body, posted with `messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`',
  },
);

const OpsgenieCreateAlert = Type.Object(
  {
    message: Str(undefined, { maxLength: 130 }),
    alias: Str('`vendor:recordId` of the incident (de-duplication key)', { maxLength: 512 }),
    description: Str(undefined, { maxLength: 15000 }),
    priority: StringEnum(['P1', 'P2', 'P3', 'P4', 'P5'] as const, { description: 'critical P1, major P2, minor P3, none P4, maintenance P5' }),
    source: Str(),
    entity: Str(),
    tags: Type.Array(Str(undefined, { maxLength: 50 }), { maxItems: 20 }),
    details: Type.Record(Type.String(), Type.String()),
  },
  { ...open, $id: 'OpsgenieCreateAlert', description: 'POST /v2/alerts (Authorization: GenieKey <key>) when an incident opens or a maintenance starts' },
);

const OpsgenieNote = Type.Object(
  { note: Str(undefined, { maxLength: 25000 }), source: Str() },
  {
    ...open,
    $id: 'OpsgenieNote',
    description: 'POST /v2/alerts/{alias}/notes?identifierType=alias on an update; /close?identifierType=alias (same body) on resolution',
  },
);

const PagerDutyEvent = Type.Object(
  {
    routing_key: Str('The integration key'),
    event_action: StringEnum(['trigger', 'resolve'] as const),
    dedup_key: Str('The incident id', { maxLength: 255 }),
    payload: Type.Optional(
      Obj(
        {
          summary: Str(undefined, { maxLength: 1024 }),
          source: Str(),
          severity: StringEnum(['critical', 'error', 'warning', 'info'] as const),
          timestamp: Str(undefined, { format: 'date-time' }),
          custom_details: Obj({}, 'Vendor, status, impact, components, latest update, delivery id'),
        },
        'Alert payload (trigger only)',
      ),
    ),
  },
  { ...open, $id: 'PagerDutyEvent', description: 'PagerDuty Events API v2 event' },
);

const DiscordMessage = Type.Object(
  {
    username: Str(),
    allowed_mentions: Obj({ parse: Type.Array(Type.String(), { maxItems: 0 }) }, 'No pings'),
    embeds: Type.Array(
      Obj(
        {
          title: Str(undefined, { maxLength: 256 }),
          description: Str(undefined, { maxLength: 2000 }),
          url: Type.Optional(Str(undefined, { format: 'uri' })),
          timestamp: Str(undefined, { format: 'date-time' }),
          color: Type.Integer(),
          fields: Type.Array(Obj({ name: Str(), value: Str(), inline: Type.Boolean() }, 'Embed field')),
        },
        'Embed',
      ),
      { minItems: 1, maxItems: 1 },
    ),
  },
  { ...open, $id: 'DiscordMessage', description: 'Discord execute-webhook body (`webhook.format: discord`)' },
);

const IncidentIoAlertEvent = Type.Object(
  {
    title: Str(undefined, { maxLength: 500 }),
    status: StringEnum(['firing', 'resolved'] as const),
    deduplication_key: Str('`vendor:recordId`: every event of one incident updates one alert'),
    description: Str('Markdown'),
    metadata: Type.Object({}, { ...open, description: 'vendor, vendor_name, event_type, impact, status, components, delivery_id' }),
    source_url: Type.Optional(Str("The vendor's page of the incident", { format: 'uri' })),
  },
  { ...open, $id: 'IncidentIoAlertEvent', description: 'POST to the HTTP alert source URL (Authorization: Bearer <source token>)' },
);

const DatadogEvent = Type.Object(
  {
    data: Obj(
      {
        type: Type.Literal('event'),
        attributes: Obj(
          {
            title: Str(undefined, { maxLength: 500 }),
            category: Type.Literal('alert'),
            attributes: Obj(
              { status: StringEnum(['error', 'warn', 'ok'] as const), priority: StringEnum(['1', '2', '3', '4', '5'] as const) },
              'Alert attributes',
            ),
            message: Str(undefined, { maxLength: 4000 }),
            aggregation_key: Str('One Datadog alert per vendor incident', { maxLength: 100 }),
            tags: Type.Array(Str()),
          },
          'The event',
        ),
      },
      'JSON:API data',
    ),
  },
  { ...open, $id: 'DatadogEvent', description: 'POST https://event-management-intake.<site>/api/v2/events (DD-API-KEY header)' },
);

const MattermostMessage = Type.Object(
  {
    text: Str('Markdown; vendor text escaped, mentions defused'),
    attachments: Type.Array(
      Obj(
        {
          fallback: Str(),
          color: Str(),
          title: Str(),
          title_link: Type.Optional(Str()),
          text: Str(),
          fields: Type.Array(Obj({ title: Str(), value: Str(), short: Type.Boolean() }, 'Field')),
          footer: Str(),
        },
        'Attachment',
      ),
      { minItems: 1, maxItems: 1 },
    ),
  },
  { ...open, $id: 'MattermostMessage', description: 'POST to the incoming webhook URL' },
);

const TelegramSendMessage = Type.Object(
  {
    chat_id: Type.Union([Type.Integer(), Str()]),
    text: Str('HTML: vendor text escaped', { maxLength: 4096 }),
    parse_mode: Type.Literal('HTML'),
    link_preview_options: Obj({ is_disabled: Type.Boolean() }, 'Previews off'),
  },
  { ...open, $id: 'TelegramSendMessage', description: 'POST https://api.telegram.org/bot<token>/sendMessage' },
);

const GrafanaAnnotation = Type.Object(
  {
    dashboardUID: Type.Optional(Str('Only when the route names a dashboard; absent = an organisation annotation')),
    time: Type.Integer({ description: 'Epoch milliseconds: when the vendor says it started' }),
    timeEnd: Type.Optional(Type.Integer({ description: 'Epoch milliseconds: when it was resolved (the annotation becomes a region)' })),
    tags: Type.Array(Str(), {
      description: 'vendor-status, vendor:<id>, impact:<impact>, incident or maintenance, and vendor-status-ref:<digest> (found again by a retry)',
    }),
    text: Str(undefined, { maxLength: 4000 }),
  },
  {
    ...open,
    $id: 'GrafanaAnnotation',
    description: 'POST <grafana>/api/annotations, then PATCH /api/annotations/{id} for later events (Authorization: Bearer <service account token>)',
  },
);

const ServiceNowEvents = Type.Object(
  {
    records: Type.Array(
      Obj(
        {
          source: Str(),
          event_class: Str(),
          node: Str('The vendor'),
          resource: Str('Its components'),
          metric_name: Str(),
          type: Str(),
          severity: StringEnum(['0', '1', '2', '3', '4'] as const),
          message_key: Str('One ServiceNow alert per vendor incident', { maxLength: 255 }),
          description: Str(),
          time_of_event: Str('yyyy-MM-dd HH:mm:ss, GMT', { pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' }),
          resolution_state: StringEnum(['New', 'Closing'] as const),
          additional_info: Str('A string holding a JSON object'),
        },
        'One event',
      ),
      { minItems: 1 },
    ),
  },
  { ...open, $id: 'ServiceNowEvents', description: 'POST <instance>/api/global/em/jsonv2 (basic auth of an evt_mgmt_integration user)' },
);

const FireHydrantEvent = Type.Object(
  {
    summary: Str(undefined, { maxLength: 255 }),
    body: Str(),
    status: StringEnum(['OPEN', 'CLOSED'] as const),
    level: StringEnum(['INFO', 'WARN', 'ERROR', 'FATAL'] as const),
    idempotency_key: Str('One alert per vendor incident while it is open', { maxLength: 255 }),
    tags: Type.Array(Str()),
    annotations: Type.Record(Type.String(), Type.String(), { description: 'String values only' }),
    links: Type.Array(Obj({ href: Str(undefined, { format: 'uri' }), text: Str() }, 'Link')),
  },
  { ...open, $id: 'FireHydrantEvent', description: 'POST to the generic webhook event source ingest URL (its token is in the URL)' },
);

const RootlyAlert = Type.Object(
  {
    data: Obj(
      {
        type: Type.Literal('alerts'),
        attributes: Obj(
          {
            source: Type.Literal('api'),
            summary: Str(undefined, { maxLength: 500 }),
            description: Str(),
            deduplication_key: Str('`vendor:recordId`'),
            external_id: Str(),
            external_url: Type.Optional(Str(undefined, { format: 'uri' })),
            data: Type.Object({}, { ...open, description: 'vendor, vendor_name, event_type, impact, status, components, delivery_id' }),
          },
          'The alert',
        ),
      },
      'JSON:API data',
    ),
  },
  {
    ...open,
    $id: 'RootlyAlert',
    description: 'POST https://api.rootly.com/v1/alerts (Content-Type application/vnd.api+json; Authorization: Bearer <API key>)',
  },
);

const RootlyResolve = Type.Object(
  {
    data: Obj(
      { type: Type.Literal('alerts'), attributes: Obj({ resolution_message: Str(), resolve_related_incidents: Type.Boolean() }, 'The resolution') },
      'JSON:API data',
    ),
  },
  { ...open, $id: 'RootlyResolve', description: 'POST https://api.rootly.com/v1/alerts/{id}/resolve, id from the create answer' },
);

const PAGE_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'] as const;
const StatuspageComponentUpdate = Type.Object(
  { component: Obj({ status: StringEnum(PAGE_STATUSES) }, 'The new status') },
  {
    ...open,
    $id: 'StatuspageComponentUpdate',
    description: 'PATCH https://api.statuspage.io/v1/pages/{page_id}/components/{component_id} (Authorization: OAuth <API key>)',
  },
);

const InstatusComponentUpdate = Type.Object(
  { status: StringEnum(['OPERATIONAL', 'DEGRADEDPERFORMANCE', 'PARTIALOUTAGE', 'MAJOROUTAGE', 'UNDERMAINTENANCE'] as const) },
  {
    ...open,
    $id: 'InstatusComponentUpdate',
    description: 'PUT https://api.instatus.com/v1/{page_id}/components/{component_id} (Authorization: Bearer <API key>)',
  },
);

export const OUTBOUND_SCHEMAS = [
  StandardWebhookBody,
  SlackMessage,
  TeamsMessage,
  GoogleChatMessage,
  OpsgenieCreateAlert,
  OpsgenieNote,
  PagerDutyEvent,
  DiscordMessage,
  IncidentIoAlertEvent,
  DatadogEvent,
  MattermostMessage,
  TelegramSendMessage,
  GrafanaAnnotation,
  ServiceNowEvents,
  FireHydrantEvent,
  RootlyAlert,
  RootlyResolve,
  StatuspageComponentUpdate,
  InstatusComponentUpdate,
];

const hook = (operationId: string, summary: string, schema: string, responses: Record<string, string>) => ({
  post: {
    operationId,
    summary,
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
    responses: Object.fromEntries(Object.entries(responses).map(([code, description]) => [code, { description }])),
  },
});

/** The `x-webhooks` extension: one operation per outbound payload, as the receiver sees it. */
export const X_WEBHOOKS = {
  standardWebhook: hook('receiveStandardWebhook', 'Webhook alert (Standard Webhooks, signed)', 'StandardWebhookBody', {
    '2XX': 'Accepted; anything else is retried',
    '410': 'Gone: the webhook is switched off',
  }),
  slackIncomingWebhook: hook('receiveSlackIncomingWebhook', 'Slack incoming webhook / chat.postMessage', 'SlackMessage', { '200': 'Plain-text `ok`' }),
  teamsWorkflow: hook('receiveTeamsWorkflow', 'Microsoft Teams Workflows webhook', 'TeamsMessage', {
    '202': 'Flow triggered',
    '404': 'Workflow gone: Teams is switched off',
  }),
  googleChat: hook('receiveGoogleChat', 'Google Chat space webhook', 'GoogleChatMessage', { '200': 'The created Message' }),
  opsgenieCreate: hook('receiveOpsgenieCreate', 'Opsgenie: create alert', 'OpsgenieCreateAlert', { '202': 'Request will be processed' }),
  opsgenieNoteOrClose: hook('receiveOpsgenieNoteOrClose', 'Opsgenie: add note / close alert by alias', 'OpsgenieNote', { '202': 'Request will be processed' }),
  jsmCreate: hook('receiveJsmCreate', 'Jira Service Management Operations: create alert (the Opsgenie body)', 'OpsgenieCreateAlert', {
    '202': 'Request will be processed',
  }),
  jsmNoteOrClose: hook('receiveJsmNoteOrClose', 'Jira Service Management Operations: add note / close alert by alias', 'OpsgenieNote', {
    '202': 'Request will be processed',
  }),
  pagerduty: hook('receivePagerduty', 'PagerDuty Events API v2', 'PagerDutyEvent', { '202': 'Accepted', '400': 'Invalid event (not retried)' }),
  discord: hook('receiveDiscord', 'Discord execute webhook', 'DiscordMessage', { '204': 'Posted' }),
  incidentIo: hook('receiveIncidentIo', 'incident.io HTTP alert source', 'IncidentIoAlertEvent', {
    '202': 'Accepted',
    '404': 'Alert source gone: the route is switched off',
  }),
  datadog: hook('receiveDatadogEvent', 'Datadog Events API v2', 'DatadogEvent', { '202': 'Accepted' }),
  mattermost: hook('receiveMattermost', 'Mattermost incoming webhook', 'MattermostMessage', {
    '200': 'Plain-text `ok`',
    '404': 'Webhook gone: the route is switched off',
  }),
  telegram: hook('receiveTelegram', 'Telegram Bot API sendMessage', 'TelegramSendMessage', { '200': '`{"ok":true,"result":{…}}`' }),
  grafana: hook('receiveGrafanaAnnotation', 'Grafana annotations HTTP API', 'GrafanaAnnotation', {
    '200': '`{"message":"Annotation added","id":1}`',
    '401': 'Token refused: the route is switched off',
  }),
  servicenow: hook('receiveServiceNowEvents', 'ServiceNow Event Management events (jsonv2)', 'ServiceNowEvents', {
    '200': 'Events inserted',
    '401': 'Credentials refused: the route is switched off',
  }),
  firehydrant: hook('receiveFireHydrantEvent', 'FireHydrant Signals generic webhook event', 'FireHydrantEvent', {
    '202': '`{"success":true}`',
    '404': 'Event source gone: the route is switched off',
  }),
  rootly: hook('receiveRootlyAlert', 'Rootly alerts API: create', 'RootlyAlert', {
    '201': 'Created; `data.id` is kept to resolve it',
    '401': 'Key refused: the route is switched off',
  }),
  rootlyResolve: hook('receiveRootlyResolve', 'Rootly alerts API: resolve', 'RootlyResolve', { '200': 'Resolved' }),
  statuspage: hook('receiveStatuspageComponent', 'Atlassian Statuspage: set a component status (PATCH)', 'StatuspageComponentUpdate', {
    '200': 'The component',
    '420': 'Rate limited: retried',
  }),
  instatus: hook('receiveInstatusComponent', 'Instatus: set a component status (PUT)', 'InstatusComponentUpdate', { '200': 'The component' }),
};
