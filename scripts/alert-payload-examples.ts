import { fileURLToPath } from 'node:url';
import { emailMessage } from '../src/domain/alert-text.ts';
import { messageIdOf } from '../src/alerts/channels/email.ts';
import { googleChatBody, threadKey } from '../src/alerts/channels/google-chat.ts';
import { OPSGENIE_ALERTS_PATH, opsgenieRequest } from '../src/alerts/channels/opsgenie.ts';
import { pagerdutyEvent } from '../src/alerts/channels/pagerduty.ts';
import { slackMessage } from '../src/alerts/channels/slack.ts';
import { teamsBody } from '../src/alerts/channels/teams.ts';
import { discordBody, standardBody } from '../src/alerts/channels/webhook.ts';
import { gatherHeld } from '../src/alerts/held-summaries.ts';
import { grafanaAnnotation } from '../src/alerts/channels/grafana.ts';
import { serviceNowBody } from '../src/alerts/channels/servicenow.ts';
import { fireHydrantBody } from '../src/alerts/channels/firehydrant.ts';
import { rootlyAlertBody, rootlyResolveBody } from '../src/alerts/channels/rootly.ts';
import { componentCall } from '../src/alerts/channels/status-page-push.ts';
import { defaultPreferences, mergePreferences } from '../src/domain/preferences.ts';
import type { DeliveryEventType } from '../src/domain/alerts.ts';
import type { Delivery, NewDelivery } from '../src/store/repositories/deliveries-repository.ts';
import { signalAlertPayload } from '../src/domain/signal-alerts.ts';

// The "Payload examples" section of docs/alerts.md, built by the channels' own
// body builders from one sample incident, so the examples are what is sent.
// `npx tsx scripts/alert-payload-examples.ts` prints it; a unit test checks that
// docs/alerts.md holds the current output.

const incident = {
  id: 'github-7rf3kd9qw2',
  vendor: 'github',
  vendorName: 'GitHub',
  title: 'Degraded performance for Actions',
  status: 'identified',
  sourceStatus: 'identified',
  impact: 'major',
  startedAt: '2026-03-02T10:01:00Z',
  updatedAt: '2026-03-02T10:20:00Z',
  resolvedAt: null,
  components: ['Actions'],
  updates: [
    { status: 'identified', body: 'The cause of delayed Actions jobs is identified; a fix is being deployed.', createdAt: '2026-03-02T10:20:00Z' },
    { status: 'investigating', body: 'We are investigating delayed Actions jobs.', createdAt: '2026-03-02T10:01:00Z' },
  ],
  url: 'https://www.githubstatus.com/incidents/7rf3kd9qw2',
  source: 'statuspage',
  durationMinutes: null,
};

const delivery = (o: Partial<Delivery> = {}): Delivery => ({
  id: 'dlv_4b1c09e2a7f84c55b0d1e3f2a6c7d8e9',
  eventSeq: 1042,
  orgId: 'usr_1',
  channel: 'webhook',
  eventType: 'incident.updated',
  vendor: 'github',
  entityId: incident.id,
  payload: incident,
  occurredAt: '2026-03-02T10:20:05.000Z',
  status: 'pending',
  attempts: 1,
  nextAttemptAt: null,
  leaseOwner: null,
  lastStatusCode: null,
  lastError: null,
  isTest: false,
  receiver: null,
  readAt: null,
  createdAt: '2026-03-02T10:20:05.000Z',
  updatedAt: '2026-03-02T10:20:05.000Z',
  completedAt: null,
  ...o,
});

const json = (v: unknown) => ['```json', JSON.stringify(v, null, 2), '```'].join('\n');
const text = (v: string) => ['```', v, '```'].join('\n');

function summaryDelivery(kind: 'digest' | 'quiet'): Delivery {
  const settings = mergePreferences(defaultPreferences(), {
    timezone: 'Europe/Berlin',
    ...(kind === 'digest' ? { email: { digest: 'hourly' } } : { quiet_hours: { enabled: true, start: '22:00', end: '07:00' } }),
  });
  const channel = kind === 'digest' ? 'email' : 'slack';
  const at = kind === 'digest' ? '2026-03-02T10:25:00Z' : '2026-03-02T22:30:00Z';
  const row = (eventType: DeliveryEventType, entityId: string): NewDelivery => ({
    id: `dlv_${eventType}`,
    eventSeq: 1,
    orgId: 'usr_1',
    channel,
    eventType,
    vendor: 'github',
    entityId,
    payloadJson: '',
    occurredAt: at,
    status: 'pending',
    nextAttemptAt: at,
  });
  const other = { ...incident, id: 'github-p0c4x1', title: 'Git Operations slow', impact: 'minor', status: 'resolved', url: null };
  const rows = [row('incident.created', incident.id), row('incident.updated', incident.id), row('incident.resolved', other.id)];
  const held = gatherHeld(
    rows,
    () => settings,
    (r) => (r.entityId === incident.id ? incident : other),
    new Map(),
    new Date(at),
  );
  const s = held.summaries[0]!;
  return delivery({
    id: s.id,
    eventSeq: null,
    channel,
    eventType: s.eventType,
    entityId: s.entityId,
    payload: JSON.parse(s.payloadJson),
    occurredAt: s.occurredAt,
  });
}

/** The sample incident as its resolution carries it. */
const resolvedAt = (x: Delivery): Delivery => ({ ...x, payload: { ...x.payload, status: 'resolved', resolvedAt: '2026-03-02T11:05:00Z' } });

export function payloadExamplesMarkdown(): string {
  const d = delivery();
  const created = delivery({ eventType: 'incident.created', id: 'dlv_0a9e3c55d2b14f0e8f6c7a1b2c3d4e5f' });
  const resolved = delivery({ eventType: 'incident.resolved', id: 'dlv_7d1f2e3c4b5a69788796a5b4c3d2e1f0' });
  const ops = (x: Delivery) => {
    const r = opsgenieRequest(x, { alertsPath: OPSGENIE_ALERTS_PATH });
    return { request: `POST {base}${r.path}`, body: r.body };
  };
  const mail = emailMessage(d);
  const digest = summaryDelivery('digest');
  const quiet = summaryDelivery('quiet');
  const digestMail = emailMessage(digest);
  const reminder = delivery({
    eventType: 'maintenance.reminder',
    eventSeq: null,
    id: 'dlv_5e0d7c1b9a8f4e3d2c1b0a9f8e7d6c5b',
    entityId: 'stripe-mw-1',
    vendor: 'stripe',
    payload: {
      id: 'stripe-mw-1',
      vendor: 'stripe',
      vendorName: 'Stripe',
      title: 'Database upgrade',
      status: 'scheduled',
      sourceStatus: 'scheduled',
      impact: 'none',
      scheduledFor: '2026-03-05T06:00:00Z',
      scheduledUntil: '2026-03-05T08:00:00Z',
      startedAt: null,
      completedAt: null,
      components: ['API'],
      updates: [{ status: 'scheduled', body: 'Starts in 1h, at 2026-03-05T06:00:00Z.', createdAt: '2026-03-05T05:00:00.000Z' }],
      url: null,
      source: 'statuspage',
      reminder: { leadTime: '1h', startsAt: '2026-03-05T06:00:00Z' },
    },
    occurredAt: '2026-03-05T05:00:00.000Z',
  });
  const signalAt = '2026-03-02T09:52:00.000Z';
  const signal = {
    id: 'sig_3f9a1c2b4d5e6f708192a3b4c5d6e7f8',
    vendor: 'github',
    state: 'suspected' as const,
    confidence: 0.85,
    components: ['Actions'],
    regions: [],
    openedAt: signalAt,
    lastObservedAt: signalAt,
    incidentId: null,
  };
  const evidence = [
    { source: 'report', strength: 0.5, summary: 'Actions jobs queued for 20 minutes', observedAt: signalAt },
    { source: 'inbound', strength: 0.7, summary: 'CI: 14 of 20 jobs failed to start', observedAt: '2026-03-02T09:48:00.000Z' },
  ];
  const suspected = delivery({
    id: 'dlv_9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49',
    eventSeq: null,
    eventType: 'early_warning.suspected',
    entityId: signal.id,
    occurredAt: signalAt,
    payload: {
      ...signalAlertPayload({
        signal,
        transition: { id: 'sgt_1', from: null, to: 'suspected', at: signalAt, actor: 'system', reason: 'inbound and report agree' },
        evidence,
        vendorName: 'GitHub',
      }),
      affectedServices: [
        {
          serviceId: 'svc_1',
          serviceName: 'ci-runner',
          criticality: 'high',
          confidence: 'high',
          reasons: ["component 'Actions' listed"],
          via: 'GitHub: Actions',
        },
      ],
    },
  });
  const confirmedAt = '2026-03-02T10:01:30.000Z';
  const confirmedSignal = delivery({
    id: 'dlv_1b2c3d4e5f60718293a4b5c6d7e8f901',
    eventSeq: null,
    eventType: 'early_warning.confirmed',
    entityId: signal.id,
    occurredAt: confirmedAt,
    payload: signalAlertPayload({
      signal: { ...signal, state: 'confirmed', incidentId: incident.id },
      transition: { id: 'sgt_2', from: 'suspected', to: 'confirmed', at: confirmedAt, actor: 'ingest', reason: `the vendor posted incident ${incident.id}` },
      evidence,
      vendorName: 'GitHub',
    }),
  });
  const inSignalThread = delivery({ eventType: 'incident.created', threadEntity: signal.id });
  return [
    '<!-- generated by scripts/alert-payload-examples.ts: do not edit by hand -->',
    'One sample incident update (GitHub, major, "identified") as each channel sends it; then the',
    'summaries and the reminder.',
    '',
    '#### Webhook, Standard Webhooks (`format: standard`)',
    json(JSON.parse(standardBody(d))),
    '#### Webhook, Discord (`format: discord`)',
    json(JSON.parse(discordBody(d))),
    '#### Slack (app: `chat.postMessage`, then replies with `thread_ts` and `chat.update` of the first; `format: slack` webhooks get the same)',
    json({ channel: 'C0ALERTS1', ...slackMessage(d), unfurl_links: false, unfurl_media: false }),
    '#### Microsoft Teams (Workflows webhook)',
    json(teamsBody(d)),
    `#### Google Chat (\`…/messages?…&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD\`, thread key \`${threadKey(d)}\`)`,
    json(googleChatBody(d)),
    '#### Opsgenie: create (incident.created), note (incident.updated), close (incident.resolved)',
    json([ops(created), ops(d), ops(resolved)]),
    '#### PagerDuty Events API v2: trigger, resolve',
    json([pagerdutyEvent(d, 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12'), pagerdutyEvent(resolved, 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12')]),
    '#### Grafana annotation: create (incident.created, on dashboard `ops-overview`), then PATCH `/api/annotations/{id}` (incident.resolved)',
    json([
      { request: 'POST {grafana}/api/annotations', body: grafanaAnnotation(created, 'ops-overview') },
      {
        request: 'PATCH {grafana}/api/annotations/{id}',
        body: (({ dashboardUID: _d, ...edit }) => edit)(grafanaAnnotation(resolvedAt(resolved), 'ops-overview')),
      },
    ]),
    '#### ServiceNow Event Management (`POST {instance}/api/global/em/jsonv2`): an update, then the clear',
    json([serviceNowBody(d), serviceNowBody(resolved)]),
    "#### FireHydrant Signals (`POST` to the event source's ingest URL): an update, then the close",
    json([fireHydrantBody(d), fireHydrantBody(resolved)]),
    '#### Rootly: create (`POST /v1/alerts`), resolve (`POST /v1/alerts/{id}/resolve`)',
    json([rootlyAlertBody(d), rootlyResolveBody(resolved)]),
    '#### Own status page: GitHub "Actions" observed `partial_outage`, mapped to page component `8kbf7d35c070`',
    json([
      componentCall('statuspage', 'kctbh9vrtdwd', '8kbf7d35c070', 'partial_outage'),
      componentCall('instatus', 'ckf01fvnxywz', 'ckf01g0x5f7pq', 'PARTIALOUTAGE'),
    ]),
    "#### E-mail (an update: it replies to the incident's first message)",
    text(
      [
        `Message-ID: ${messageIdOf(d.id)}`,
        `In-Reply-To: ${messageIdOf(created.id)}`,
        `References: ${messageIdOf(created.id)}`,
        `X-Alert-Delivery-Id: ${d.id}`,
        `X-Alert-Event: ${d.eventType}`,
        `Subject: ${mail.subject}`,
        '',
        mail.text,
      ].join('\n'),
    ),
    '#### E-mail digest (`email.digest: hourly`, Europe/Berlin)',
    text([`Message-ID: ${messageIdOf(digest.id)}`, `Subject: ${digestMail.subject}`, '', digestMail.text].join('\n')),
    'The same summary as the `data` of a webhook body (quiet hours: `type: "alerts.quiet"`, `status: "held"`):',
    json(digest.payload),
    '#### Quiet-hours summary in Slack (one message when quiet hours end)',
    json({ channel: 'C0ALERTS1', ...slackMessage(quiet) }),
    '#### Maintenance reminder (Standard Webhooks body; chat and e-mail render the first update line)',
    json(JSON.parse(standardBody(reminder))),
    '#### Early warning: a suspected signal (Standard Webhooks body)',
    json(JSON.parse(standardBody(suspected))),
    '#### Early warning in Slack: the opening message, then the confirmation in its thread',
    json({ channel: 'C0ALERTS1', ...slackMessage(suspected), unfurl_links: false, unfurl_media: false }),
    json({ channel: 'C0ALERTS1', thread_ts: '1772445120.000100', ...slackMessage(confirmedSignal), unfurl_links: false, unfurl_media: false }),
    `#### Early warning in Google Chat (thread key \`${threadKey(suspected)}\`; the confirming incident's alerts use the same key: \`${threadKey(inSignalThread)}\`)`,
    json(googleChatBody(suspected)),
    '#### Early warning in PagerDuty: trigger (suspected); a cleared or dismissed signal resolves it',
    json(pagerdutyEvent(suspected, 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12')),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${payloadExamplesMarkdown()}\n`);
