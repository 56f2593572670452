import type { MaintenanceRecord } from './records.ts';

// When a maintenance window is over, and which windows count as active now
// (docs/ingestion.md "Maintenance windows", docs/statistics.md).

const HOUR = 3_600_000;
/** A window may overrun its announced end; past this it is not shown as active any more. */
const MAINTENANCE_OVERRUN_MS = 24 * HOUR;
/** A window announced without an end is not shown as active this long after its start. */
const MAINTENANCE_OPEN_END_MS = 7 * 24 * HOUR;

/** Long over: announced end (or start, without an end) far enough in the past. */
function longOver(m: MaintenanceRecord, now: Date): boolean {
  const end = m.scheduledUntil ? Date.parse(m.scheduledUntil) + MAINTENANCE_OVERRUN_MS : Date.parse(m.scheduledFor) + MAINTENANCE_OPEN_END_MS;
  return end < now.getTime();
}

/** In progress, verifying, or scheduled and due; never completed, never long over. */
export function isActiveMaintenance(m: MaintenanceRecord, now: Date): boolean {
  if (m.status === 'completed' || longOver(m, now)) return false;
  return m.status !== 'scheduled' || m.scheduledFor <= now.toISOString();
}

/** Scheduled and not yet due. */
export function isUpcomingMaintenance(m: MaintenanceRecord, now: Date): boolean {
  return m.status === 'scheduled' && m.scheduledFor > now.toISOString();
}

/**
 * A window that a complete list of open maintenances no longer holds is completed
 * once its announced end has passed (at that end); before that, or without an
 * announced end, it is left as it is (null).
 */
export function completedByAbsence(m: MaintenanceRecord, at: string): MaintenanceRecord | null {
  if (m.status === 'completed' || !m.scheduledUntil || m.scheduledUntil > at) return null;
  return { ...m, status: 'completed', startedAt: m.startedAt ?? m.scheduledFor, completedAt: m.scheduledUntil };
}
