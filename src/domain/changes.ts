import type { IncidentEventType, MaintenanceEventType } from './events.ts';
import type { IncidentRecord, MaintenanceRecord } from './records.ts';

// What an incoming record means against what is stored: write or not, and which
// event (if any) announces it. Pure rules, documented in docs/ingestion.md.

export interface Stored<T> {
  record: T;
  fingerprint: string;
}

export type Decision<E> = { write: false } | { write: true; event: E | null };

const SKIP = { write: false } as const;

/**
 * `since`: the previous successful poll of this source. A record first seen already
 * finished is announced only if it finished after that poll (a short incident that
 * began and ended between two polls); otherwise it is history being backfilled,
 * stored without an event.
 */
export function decideIncident(
  prev: Stored<IncidentRecord> | undefined,
  next: IncidentRecord,
  nextFingerprint: string,
  since: string | null,
): Decision<IncidentEventType> {
  if (prev && prev.fingerprint === nextFingerprint) return SKIP;
  const nowResolved = next.status === 'resolved';
  if (!prev) {
    if (!nowResolved) return { write: true, event: 'incident.created' };
    const fresh = since !== null && next.resolvedAt !== null && next.resolvedAt >= since;
    return { write: true, event: fresh ? 'incident.resolved' : null };
  }
  const wasResolved = prev.record.status === 'resolved';
  if (wasResolved && nowResolved) {
    // A postmortem, or the upstream's own resolution time replacing ours: refresh quietly,
    // so a resolved incident is announced as resolved exactly once.
    return { write: true, event: null };
  }
  if (wasResolved && !nowResolved) {
    // Reopened only by news newer than the resolution; an older copy (a history list
    // cached upstream a little longer than the summary) must not flip it back.
    const resolvedAt = prev.record.resolvedAt ?? prev.record.updatedAt;
    return next.updatedAt > resolvedAt ? { write: true, event: 'incident.updated' } : SKIP;
  }
  return { write: true, event: nowResolved ? 'incident.resolved' : 'incident.updated' };
}

/** An open incident that a complete list of unresolved incidents no longer contains. */
export function resolvedByAbsence(open: IncidentRecord, at: string): IncidentRecord {
  return { ...open, status: 'resolved', resolvedAt: at, updatedAt: at };
}

const begun = (m: MaintenanceRecord) => m.status === 'in_progress' || m.status === 'verifying';

export function decideMaintenance(
  prev: Stored<MaintenanceRecord> | undefined,
  next: MaintenanceRecord,
  nextFingerprint: string,
  since: string | null,
): Decision<MaintenanceEventType> {
  if (prev && prev.fingerprint === nextFingerprint) return SKIP;
  const done = next.status === 'completed';
  if (!prev) {
    if (next.status === 'scheduled') return { write: true, event: 'maintenance.scheduled' };
    if (begun(next)) return { write: true, event: 'maintenance.started' };
    const fresh = since !== null && next.completedAt !== null && next.completedAt >= since;
    return { write: true, event: fresh ? 'maintenance.completed' : null };
  }
  const p = prev.record;
  if (p.status === 'completed') {
    if (done) return { write: true, event: null };
    // Only news posted after completion reopens a window (see decideIncident).
    const newest = next.updates.reduce<string | null>((a, u) => (a === null || u.createdAt > a ? u.createdAt : a), null);
    const completedAt = p.completedAt ?? p.scheduledUntil ?? p.scheduledFor;
    return newest !== null && newest > completedAt ? { write: true, event: 'maintenance.updated' } : SKIP;
  }
  if (done) return { write: true, event: 'maintenance.completed' };
  if (p.status === 'scheduled' && begun(next)) return { write: true, event: 'maintenance.started' };
  return { write: true, event: 'maintenance.updated' };
}
