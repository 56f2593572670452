import { type AlertHit, alertHits, impactRecordOfPayload, payloadHits } from '../domain/alert-impact.ts';
import { routeReceiver, takesOwnerReminders } from '../domain/alert-routes.ts';
import { type ChannelAvailability, REMINDER_EVENT_TYPE } from '../domain/alerts.ts';
import { INTERNAL_AUDIENCE } from '../domain/audience.ts';
import { impactIndex } from '../domain/impact.ts';
import { dueReminder, leadLabel, OWNER_ROUTE_LEAD_TIMES, parseLeadTime } from '../domain/reminders.ts';
import type { AlertRoutesRepository } from '../store/repositories/alert-routes-repository.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';
import type { MaintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import type { ServicesRepository } from '../store/repositories/services-repository.ts';
import type { StatusRepository } from '../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../store/repositories/vendors-repository.ts';
import { reminderId } from './reminders.ts';

// Maintenance reminders of critical services (docs/alert-routes.md "Reminders for critical
// services"): a window of a vendor a `critical` service depends on, which the impact rules
// say may hit it, gets reminders 24 h and 1 h ahead on the service's owner route, without
// any setting. Rows are keyed like the preferences' reminders (route, window, start, lead
// time), so each fires once whichever instance scans.

export interface OwnerReminderDeps {
  maintenances: Pick<MaintenancesRepository, 'startingBetween'>;
  deliveries: Pick<DeliveriesRepository, 'insertNew'>;
  services: Pick<ServicesRepository, 'criticalOwned'>;
  routes: Pick<AlertRoutesRepository, 'getMany'>;
  status: Pick<StatusRepository, 'componentNames'>;
  vendors?: Pick<VendorsRepository, 'names'>;
  available: ChannelAvailability;
}

const LEADS = OWNER_ROUTE_LEAD_TIMES.map((l) => parseLeadTime(l)!);
const LONGEST = Math.max(...LEADS);

/** Creates the owner-route reminders due at `now`; returns how many rows were new. */
export async function scanOwnerReminders(d: OwnerReminderDeps, now: Date): Promise<number> {
  const windows = await d.maintenances.startingBetween(now.toISOString(), new Date(now.getTime() + LONGEST).toISOString());
  const due = windows.map((w) => ({ w, lead: dueReminder(Date.parse(w.scheduledFor), LEADS, now.getTime()) })).filter((x) => x.lead !== null);
  if (!due.length) return 0;
  const vendors = [...new Set(due.map((x) => x.w.vendor))];
  const owned = await d.services.criticalOwned(vendors);
  if (!owned.length) return 0;
  // A route that does not open is left out; a later scan takes it once its key is back.
  const routes = new Map((await d.routes.getMany([...new Set(owned.map((s) => s.ownerRouteId!))])).routes.map((r) => [r.id, r]));
  const byOrg = new Map<string, typeof owned>();
  for (const s of owned) byOrg.set(s.orgId, [...(byOrg.get(s.orgId) ?? []), s]);
  const components = await d.status.componentNames(vendors);
  const names = d.vendors ? await d.vendors.names(INTERNAL_AUDIENCE) : new Map<string, string>();
  const at = now.toISOString();
  const rows: NewDelivery[] = [];
  for (const { w, lead } of due) {
    const vendorName = names.get(w.vendor) ?? w.vendor;
    const record = impactRecordOfPayload(w.vendor, 'maintenance.scheduled', w as unknown as Record<string, unknown>, components.get(w.vendor));
    for (const [orgId, services] of byOrg) {
      const hits = alertHits(record, vendorName, services, impactIndex(services)).filter((h) => h.criticality === 'critical');
      const byRoute = new Map<string, AlertHit[]>();
      for (const h of hits) if (h.ownerRouteId) byRoute.set(h.ownerRouteId, [...(byRoute.get(h.ownerRouteId) ?? []), h]);
      for (const [routeId, routeHits] of byRoute) {
        const route = routes.get(routeId);
        // A route of another organisation never takes them (owner routes are the service's own organisation's).
        if (!route || route.orgId !== orgId || !takesOwnerReminders(route, d.available)) continue;
        const label = leadLabel(lead!);
        const payload = {
          ...w,
          vendorName,
          reminder: { leadTime: label, startsAt: w.scheduledFor },
          updates: [{ status: 'scheduled', body: `Starts in ${label}, at ${w.scheduledFor}.`, createdAt: at }, ...w.updates],
        };
        rows.push({
          id: reminderId(`route:${route.id}`, route.destination.channel, w.id, w.scheduledFor, lead!),
          eventSeq: null,
          orgId,
          channel: route.destination.channel,
          eventType: REMINDER_EVENT_TYPE,
          vendor: w.vendor,
          entityId: w.id,
          payloadJson: JSON.stringify(payload),
          occurredAt: at,
          status: 'pending',
          nextAttemptAt: at,
          receiver: routeReceiver(route.destination),
          routeId: route.id,
          affectedServicesJson: JSON.stringify(payloadHits(routeHits)),
        });
      }
    }
  }
  return rows.length ? d.deliveries.insertNew(rows, now) : 0;
}
