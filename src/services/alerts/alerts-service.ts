import { Feed } from 'feed';
import { httpUrlOrNull, stripUnsafe } from '../../domain/upstream-text.ts';
import { newDeliveryId } from '../../domain/deliveries.ts';
import { leaseMs } from '../../domain/deliveries.ts';
import { alertText } from '../../domain/alert-text.ts';
import { emailMessage } from '../../domain/alert-text.ts';
import {
  type AlertChannel,
  type ChannelAvailability,
  type DeliveryEventType,
  isPushChannel,
  type NotificationEventType,
  PUSH_CHANNELS,
  type PushChannel,
} from '../../domain/alerts.ts';
import type { DeliveryStatus } from '../../domain/deliveries.ts';
import { DomainError } from '../../domain/errors.ts';
import type { DeliveriesRepository, Delivery, DeliveryAttempt } from '../../store/repositories/deliveries-repository.ts';
import type { InboxRepository, InboxRow } from '../../store/repositories/inbox-repository.ts';
import type { InvitationMailer } from '../orgs/orgs-service.ts';
import type { ConfirmationMailer, PreferencesService } from './preferences-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import { feedText } from '../feeds/feed-text.ts';

// Per-user use cases of alert delivery: the in-app notification list, the
// delivery log, the test alert, and the personal RSS/Atom feed.

// The views carry the domain's literal types, which the response schemas
// (src/http/schemas/alerts.ts) list as enums.

interface NotificationView {
  id: string;
  type: NotificationEventType;
  vendor: string;
  vendorName: string;
  entityId: string;
  title: string;
  status: string;
  impact: string;
  url: string | null;
  occurredAt: string;
  createdAt: string;
  read: boolean;
  readAt: string | null;
  test: boolean;
}

interface AttemptView {
  attempt: number;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: DeliveryAttempt['outcome'];
}

export interface DeliveryView {
  id: string;
  channel: PushChannel;
  type: DeliveryEventType;
  vendor: string;
  entityId: string;
  title: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending rows only). */
  nextAttemptAt: string | null;
  inFlight: boolean;
  lastStatusCode: number | null;
  lastError: string | null;
  test: boolean;
  createdAt: string;
  completedAt: string | null;
  recentAttempts: AttemptView[];
}

export interface TestResult {
  channel: AlertChannel;
  delivered: boolean;
  deliveryId: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

const notificationView = (d: InboxRow): NotificationView => {
  const t = alertText(d);
  return {
    id: d.id,
    type: d.eventType,
    vendor: d.vendor,
    vendorName: t.vendorName,
    entityId: d.entityId,
    title: String(d.payload.title ?? ''),
    status: t.status,
    impact: t.impact,
    url: t.url,
    occurredAt: d.occurredAt,
    createdAt: d.createdAt,
    read: d.readAt !== null,
    readAt: d.readAt,
    test: d.isTest,
  };
};

const attemptView = (a: DeliveryAttempt): AttemptView => ({
  attempt: a.attempt,
  startedAt: a.startedAt,
  statusCode: a.statusCode,
  latencyMs: a.latencyMs,
  error: a.error,
  outcome: a.outcome,
});

/** The record a test alert carries: shaped like a real incident, marked as a test everywhere. */
function testIncident(now: Date) {
  const at = now.toISOString();
  return {
    id: `test-${now.getTime()}`,
    vendor: 'test',
    vendorName: 'Vendor Status',
    title: 'Test alert',
    status: 'investigating',
    sourceStatus: 'investigating',
    impact: 'minor',
    startedAt: at,
    updatedAt: at,
    resolvedAt: null,
    components: [],
    updates: [{ status: 'investigating', body: 'This is a test alert sent from your notification preferences.', createdAt: at }],
    url: null,
    source: 'test',
    durationMinutes: null,
    test: true,
  };
}

const FEED_ITEMS = 50;

/**
 * What the use cases need of alert delivery, which runs outside services (src/alerts,
 * wired in app.ts; docs/architecture.md): which channels can send, one attempt of a
 * claimed row for the test alert, and the e-mail address confirmation.
 */
export interface AlertDelivery {
  available: ChannelAvailability;
  confirmationMailer: ConfirmationMailer | null;
  /** Organisation invitations by e-mail; null without SMTP (the link is then only shown to the inviter). */
  invitationMailer: InvitationMailer | null;
  worker: {
    sendClaimed(
      rows: Delivery[],
      maxAttempts?: number,
    ): Promise<{ status: string; latencyMs: number; outcome: { ok: boolean; statusCode: number | null; error: string | null } }[]>;
  };
}

export function alertsService(d: {
  deliveries: DeliveriesRepository;
  inbox: InboxRepository;
  preferences: PreferencesService;
  clock: Clock;
  runtime: () => AlertDelivery;
}) {
  /** One test alert on one channel (of the preferences, or of an alert route) now, one attempt. */
  async function sendTestRow(orgId: string, channel: AlertChannel, routeId: string | null): Promise<TestResult> {
    const runtime = d.runtime();
    if (channel === 'email' && !runtime.available.email) {
      throw new DomainError('conflict', 'E-mail alerts are not available on this server (no SMTP server configured)');
    }
    const now = d.clock.now();
    const id = newDeliveryId();
    const payload = testIncident(now);
    const push = isPushChannel(channel);
    const owner = `test_${id}`;
    await d.deliveries.insert(
      {
        id,
        eventSeq: null,
        orgId,
        channel,
        eventType: 'incident.created',
        vendor: payload.vendor,
        entityId: payload.id,
        payloadJson: JSON.stringify(payload),
        occurredAt: now.toISOString(),
        status: push ? 'pending' : 'succeeded',
        // Leased by this request for its one attempt; no worker picks it up meanwhile.
        nextAttemptAt: push ? new Date(now.getTime() + leaseMs(60_000)).toISOString() : null,
        leaseOwner: push ? owner : null,
        attempts: push ? 1 : 0,
        isTest: true,
        routeId,
      },
      now,
    );
    if (!push) return { channel, delivered: true, deliveryId: id, statusCode: null, latencyMs: 0, error: null };
    const row = (await d.deliveries.get(id))!;
    const [report] = await runtime.worker.sendClaimed([row], 1);
    if (!report) throw new DomainError('unavailable', 'The test alert could not be sent; try again');
    if (report.status === 'cancelled') {
      throw new DomainError(
        'conflict',
        routeId ? `The alert route cannot be sent to: ${report.outcome.error}` : `The ${channel} channel is not configured: ${report.outcome.error}`,
      );
    }
    return {
      channel,
      delivered: report.outcome.ok,
      deliveryId: id,
      statusCode: report.outcome.statusCode,
      latencyMs: Math.round(report.latencyMs),
      error: report.outcome.ok ? null : report.outcome.error,
    };
  }

  return {
    async notifications(viewer: Viewer, o: { limit: number; unreadOnly: boolean }) {
      const orgId = ownerOrg(viewer);
      const rows = await d.inbox.list(orgId, 'in_app', { limit: o.limit, unreadOnly: o.unreadOnly });
      return { items: rows.map(notificationView), unread: await d.inbox.countUnread(orgId, 'in_app') };
    },

    async markRead(viewer: Viewer, id: string) {
      const orgId = ownerOrg(viewer);
      const found = await d.inbox.markRead(orgId, 'in_app', id, d.clock.now());
      if (!found) throw new DomainError('not_found', `No notification '${id}'`);
      return { unread: await d.inbox.countUnread(orgId, 'in_app') };
    },

    async markAllRead(viewer: Viewer) {
      const orgId = ownerOrg(viewer);
      const marked = await d.inbox.markAllRead(orgId, 'in_app', d.clock.now());
      return { marked, unread: 0 };
    },

    async deliveries(viewer: Viewer, o: { limit: number; channel?: PushChannel; status?: DeliveryStatus }): Promise<DeliveryView[]> {
      const orgId = ownerOrg(viewer);
      const channels = o.channel ? [o.channel] : [...PUSH_CHANNELS];
      const rows = await d.deliveries.listForOrg(orgId, { channels, limit: o.limit, status: o.status });
      const attempts = await d.deliveries.attemptsOf(rows.map((r) => r.id));
      return rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        type: r.eventType,
        vendor: r.vendor,
        entityId: r.entityId,
        title: alertText(r).title,
        status: r.status,
        attempts: r.attempts,
        nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt : null,
        inFlight: r.status === 'pending' && r.leaseOwner !== null,
        lastStatusCode: r.lastStatusCode,
        lastError: r.lastError,
        test: r.isTest,
        createdAt: r.createdAt,
        completedAt: r.completedAt,
        // The last five: enough to see a retry pattern, small for 50 rows.
        recentAttempts: (attempts.get(r.id) ?? []).slice(-5).map(attemptView),
      }));
    },

    /** Sends one test alert on one channel now, one attempt, and reports how it went. */
    sendTest: (viewer: Viewer, channel: AlertChannel): Promise<TestResult> => sendTestRow(ownerOrg(viewer, 'editor'), channel, null),

    /** The same through one alert route (the caller checked the route belongs to the organisation). */
    sendRouteTest: (orgId: string, channel: AlertChannel, routeId: string): Promise<TestResult> => sendTestRow(orgId, channel, routeId),

    /** The personal feed of a token, or null (unknown token or feed switched off: 404). */
    async feed(token: string, format: 'rss' | 'atom', selfUrl: string, siteUrl: string): Promise<string | null> {
      const orgId = await d.preferences.userForFeedToken(token);
      if (!orgId) return null;
      const enabled = await d.preferences.feedEnabled(orgId);
      if (!enabled) return null;
      const rows = await d.inbox.list(orgId, 'rss', { limit: FEED_ITEMS });
      const feed = new Feed({
        title: 'Vendor status alerts',
        description: 'Incidents and maintenance of the vendors you follow',
        id: `urn:vendor-status:feed:${orgId}`,
        link: siteUrl,
        language: 'en',
        updated: rows[0] ? new Date(rows[0].createdAt) : new Date(0),
        generator: 'Vendor Status API',
        copyright: 'Vendor status data belongs to each vendor',
        feedLinks: format === 'rss' ? { rss: selfUrl } : { atom: selfUrl },
        author: { name: 'Vendor Status API', link: siteUrl },
      });
      for (const r of rows) {
        const t = alertText(r);
        const m = emailMessage(r);
        // Alerts stored before ingestion cleaned upstream text may still hold characters
        // XML cannot carry; one of them would make the whole feed unreadable (docs/security.md).
        feed.addItem({
          title: feedText(format, stripUnsafe(`${t.headline}: ${t.title}`).replace(/\s+/g, ' ')),
          id: `urn:vendor-status:alert:${r.id}`,
          link: httpUrlOrNull(t.url) ?? siteUrl,
          date: new Date(r.occurredAt),
          description: feedText(format, stripUnsafe(m.text)),
          content: stripUnsafe(m.html),
          category: [{ name: r.eventType }, { name: stripUnsafe(r.vendor) }],
        });
      }
      return format === 'rss' ? feed.rss2() : feed.atom1();
    },
  };
}

export type AlertsService = ReturnType<typeof alertsService>;
