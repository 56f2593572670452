import type { Incident, Maintenance } from './records.ts';
import { SIGNAL_ALERT_LABELS } from './signal-alerts.ts';

// The event log (outbox): every ingested change to an incident or a maintenance
// window becomes one row, written in the same transaction as the change. The
// stream and the alert dispatcher consume it by sequence number.

export const INCIDENT_EVENT_TYPES = ['incident.created', 'incident.updated', 'incident.resolved'] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

const MAINTENANCE_EVENT_TYPES = ['maintenance.scheduled', 'maintenance.started', 'maintenance.completed', 'maintenance.updated'] as const;
export type MaintenanceEventType = (typeof MAINTENANCE_EVENT_TYPES)[number];

const EVENT_TYPES = [...INCIDENT_EVENT_TYPES, ...MAINTENANCE_EVENT_TYPES] as const;
export type EventType = IncidentEventType | MaintenanceEventType;

/** How people read an event type: alert headlines and the preference editor. */
const EVENT_LABELS: Record<EventType, string> = {
  'incident.created': 'New incident',
  'incident.updated': 'Incident updated',
  'incident.resolved': 'Incident resolved',
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.started': 'Maintenance started',
  'maintenance.updated': 'Maintenance updated',
  'maintenance.completed': 'Maintenance completed',
};

/** Labels of the alert kinds that are not events of the log (docs/alerts.md). */
const ALERT_LABELS: Record<string, string> = {
  'alerts.held': 'Alerts held back',
  'alerts.quiet': 'Quiet hours summary',
  'alerts.digest': 'Digest',
  'maintenance.reminder': 'Maintenance reminder',
  ...SIGNAL_ALERT_LABELS,
};

/** The label of an event type, or the type itself for one this build does not know. */
export const eventLabel = (type: string): string => EVENT_LABELS[type as EventType] ?? ALERT_LABELS[type] ?? type;

export type EntityKind = 'incident' | 'maintenance';

/** An event before it has a sequence number. */
export type NewEvent =
  | { type: IncidentEventType; vendor: string; entityKind: 'incident'; entityId: string; occurredAt: string; payload: Incident }
  | {
      type: MaintenanceEventType;
      vendor: string;
      entityKind: 'maintenance';
      entityId: string;
      occurredAt: string;
      payload: Maintenance;
    };

/** An event as stored: `seq` is global and strictly increasing. */
export type StoredEvent = NewEvent & { seq: number };

export const isEventType = (v: string): v is EventType => (EVENT_TYPES as readonly string[]).includes(v);
