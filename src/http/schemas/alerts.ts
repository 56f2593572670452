import { Type } from '@sinclair/typebox';
import {
  ALERT_CHANNELS,
  DELIVERY_EVENT_TYPES,
  DIGEST_EVENT_TYPE,
  HELD_EVENT_TYPE,
  NOTIFICATION_EVENT_TYPES,
  PUSH_CHANNELS,
  QUIET_EVENT_TYPE,
  REMINDER_EVENT_TYPE,
} from '../../domain/alerts.ts';
import { DateTime, Nullable, QueryInteger, StringEnum } from './common.ts';

// In-app notifications, the delivery log and the test alert.

const EventType = StringEnum(NOTIFICATION_EVENT_TYPES, {
  description: `Event the alert is about; \`${REMINDER_EVENT_TYPE}\`: a reminder before a maintenance window starts (docs/alerts.md)`,
});

const NotificationSchema = Type.Object(
  {
    id: Type.String({ description: 'Notification id (the in-app delivery id)' }),
    type: EventType,
    vendor: Type.String(),
    vendorName: Type.String(),
    entityId: Type.String({ description: 'Incident or maintenance id' }),
    title: Type.String(),
    status: Type.String({ description: 'Status of the incident or maintenance when the alert was made' }),
    impact: Type.String(),
    url: Nullable(Type.String({ description: "The vendor's page about it" })),
    occurredAt: DateTime(),
    createdAt: DateTime(),
    read: Type.Boolean(),
    readAt: Nullable(DateTime()),
    test: Type.Boolean({ description: 'A test alert (POST /notification-preferences/test)' }),
  },
  { description: 'In-app notification' },
);

export const NotificationsQuery = Type.Object({
  limit: QueryInteger({ minimum: 1, maximum: 200, default: 50, description: 'Newest first, 1..200 (default 50)' }),
  unread: Type.Boolean({ default: false, description: 'Only unread notifications' }),
});

export const NotificationsResponse = Type.Object(
  {
    success: Type.Boolean(),
    items: Type.Array(NotificationSchema),
    unread: Type.Integer({ minimum: 0, description: 'Unread notifications in all' }),
  },
  { description: 'In-app notifications, newest first' },
);

export const NotificationIdParams = Type.Object({
  id: Type.String({ pattern: '^dlv_[a-f0-9]{32}$', description: 'Notification id' }),
});

export const MarkReadResponse = Type.Object(
  {
    success: Type.Boolean(),
    unread: Type.Integer({ minimum: 0 }),
    marked: Type.Optional(Type.Integer({ minimum: 0, description: 'Notifications marked read by this call' })),
  },
  { description: 'Read state changed' },
);

const AttemptSchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    startedAt: DateTime(),
    statusCode: Nullable(Type.Integer({ description: 'HTTP status (SMTP reply code for e-mail); null without an answer' })),
    latencyMs: Type.Integer({ minimum: 0 }),
    error: Nullable(Type.String()),
    outcome: StringEnum(['succeeded', 'retry', 'failed', 'disabled', 'cancelled'] as const),
  },
  { description: 'One delivery attempt' },
);

const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'Delivery id; the `webhook-id` header of webhook deliveries, the same on every retry' }),
    channel: StringEnum(PUSH_CHANNELS),
    type: StringEnum(DELIVERY_EVENT_TYPES, {
      description: `Event the alert is about; \`${HELD_EVENT_TYPE}\`: the summary of alerts held back by the flood cap; \`${QUIET_EVENT_TYPE}\`: alerts held during quiet hours; \`${DIGEST_EVENT_TYPE}\`: an e-mail digest; \`${REMINDER_EVENT_TYPE}\`: a reminder before a maintenance window (docs/alerts.md)`,
    }),
    vendor: Type.String(),
    entityId: Type.String(),
    title: Type.String(),
    status: StringEnum(['pending', 'succeeded', 'failed', 'cancelled'] as const),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Nullable(DateTime({ description: 'When the next attempt is due (pending only)' })),
    inFlight: Type.Boolean({ description: 'An attempt is running now' }),
    lastStatusCode: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    test: Type.Boolean(),
    createdAt: DateTime(),
    completedAt: Nullable(DateTime()),
    recentAttempts: Type.Array(AttemptSchema, { description: 'The last five attempts, oldest first' }),
  },
  { description: 'Alert delivery on a push channel' },
);

export const DeliveriesQuery = Type.Object({
  limit: QueryInteger({ minimum: 1, maximum: 200, default: 50, description: 'Newest first, 1..200 (default 50)' }),
  channel: Type.Optional(StringEnum(PUSH_CHANNELS)),
  status: Type.Optional(StringEnum(['pending', 'succeeded', 'failed', 'cancelled'] as const)),
});

export const DeliveriesResponse = Type.Object(
  { success: Type.Boolean(), items: Type.Array(DeliverySchema) },
  { description: "The caller's recent alert deliveries, newest first" },
);

export const TestAlertBody = Type.Object(
  { channel: StringEnum(ALERT_CHANNELS, { description: 'Channel to send the test alert on' }) },
  { additionalProperties: false },
);

export const TestAlertResponse = Type.Object(
  {
    success: Type.Boolean(),
    channel: StringEnum(ALERT_CHANNELS),
    delivered: Type.Boolean({ description: 'The receiver accepted the alert' }),
    deliveryId: Type.String(),
    statusCode: Nullable(Type.Integer({ description: "The receiver's HTTP status (SMTP reply code for e-mail)" })),
    latencyMs: Type.Integer({ minimum: 0 }),
    error: Nullable(Type.String({ description: 'Why it was not delivered' })),
  },
  { description: 'Result of the test alert (one attempt, not retried)' },
);
