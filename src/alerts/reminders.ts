import { createHash } from 'node:crypto';
import { type ChannelAvailability, REMINDER_EVENT_TYPE, reminderChannels, STORED_CHANNELS } from '../domain/alerts.ts';
import { VENDOR_LIST_CHANNELS } from '../domain/preferences.ts';
import { recipientOf } from '../domain/alert-routing.ts';
import { dueReminder, leadLabel, MAX_LEAD_MS, parseLeadTime } from '../domain/reminders.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';
import type { MaintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import type { PreferencesRepository, PreferencesState } from '../store/repositories/preferences-repository.ts';
import type { OrganisationsRepository } from '../store/repositories/organisations-repository.ts';
import type { WatchlistRepository } from '../store/repositories/watchlist-repository.ts';
import type { VendorsRepository } from '../store/repositories/vendors-repository.ts';
import type { AlertChannel } from '../domain/alerts.ts';
import { INTERNAL_AUDIENCE } from '../domain/audience.ts';

// Maintenance reminders (docs/alerts.md "Maintenance reminders"): a scan of the
// windows starting within the longest lead time; for each user whose lead time
// is due (src/domain/reminders.ts) one row per channel. The row id is a hash of
// user, channel, window, its start and the lead time, inserted only if absent:
// a reminder fires once, whichever instance scans first and however often, and
// survives restarts like any delivery row. A window moved to another start gets
// its reminders again (they were about the old time).

export interface ReminderDeps {
  maintenances: Pick<MaintenancesRepository, 'startingBetween'>;
  deliveries: Pick<DeliveriesRepository, 'insertNew'>;
  watchlist: Pick<WatchlistRepository, 'watchers'>;
  preferences: Pick<PreferencesRepository, 'openMany' | 'orgsWithReminders'>;
  owners: Pick<OrganisationsRepository, 'ownerEmails'>;
  /** Vendor display names (the record as the API serves it carries `vendorName`). */
  vendors?: Pick<VendorsRepository, 'names'>;
  available: ChannelAvailability;
  receiverOf(channel: AlertChannel, state: PreferencesState): string | null;
}

export const reminderId = (orgId: string, channel: string, maintenanceId: string, startsAt: string, leadMs: number) =>
  `dlv_${createHash('sha256').update(`reminder\u0000${orgId}\u0000${channel}\u0000${maintenanceId}\u0000${startsAt}\u0000${leadMs}`).digest('hex').slice(0, 32)}`;

/** Creates the reminders due at `now`; returns how many rows were new. */
export async function scanReminders(d: ReminderDeps, now: Date): Promise<number> {
  // Users first: usually few have reminders, and without any the scan is one query.
  const orgIds = await d.preferences.orgsWithReminders();
  if (!orgIds.length) return 0;
  const windows = await d.maintenances.startingBetween(now.toISOString(), new Date(now.getTime() + MAX_LEAD_MS).toISOString());
  if (!windows.length) return 0;
  const vendors = [...new Set(windows.map((w) => w.vendor))];
  // An organisation whose preferences do not open gets its reminders from a later scan, once its key is back.
  const prefs = (await d.preferences.openMany(orgIds)).states;
  const watchers = await d.watchlist.watchers(vendors);
  // A user is concerned by a vendor they watch or that one of their channels lists.
  const candidates = new Map<string, string[]>();
  for (const v of vendors) {
    const watching = new Set(watchers.get(v) ?? []);
    candidates.set(
      v,
      [...prefs].filter(([id, s]) => watching.has(id) || VENDOR_LIST_CHANNELS.some((c) => s.settings[c].vendors?.includes(v))).map(([id]) => id),
    );
  }
  const withEmail = [...prefs].filter(([, s]) => s.settings.email.enabled).map(([id]) => id);
  const emails = withEmail.length ? await d.owners.ownerEmails(withEmail) : new Map<string, string>();
  // Display names only; a private page's window reaches only its owner, the one who can watch it.
  const names = d.vendors ? await d.vendors.names(INTERNAL_AUDIENCE) : new Map<string, string>();
  const rows: NewDelivery[] = [];
  const at = now.toISOString();
  for (const w of windows) {
    const startsAt = Date.parse(w.scheduledFor);
    const watching = new Set(watchers.get(w.vendor) ?? []);
    for (const orgId of candidates.get(w.vendor) ?? []) {
      const state = prefs.get(orgId);
      if (!state) continue;
      const leads = state.settings.maintenance_reminders.lead_times.map(parseLeadTime).filter((l): l is number => l !== null);
      const lead = dueReminder(startsAt, leads, now.getTime());
      if (lead === null) continue;
      const channels = reminderChannels(w.vendor, recipientOf(state, watching.has(orgId), emails.get(orgId) ?? null), d.available);
      const label = leadLabel(lead);
      const payload = {
        ...w,
        vendorName: names.get(w.vendor) ?? w.vendor,
        reminder: { leadTime: label, startsAt: w.scheduledFor },
        // The reminder line first, so every channel's "latest update" shows it.
        updates: [{ status: 'scheduled', body: `Starts in ${label}, at ${w.scheduledFor}.`, createdAt: at }, ...w.updates],
      };
      const payloadJson = JSON.stringify(payload);
      for (const channel of channels) {
        const stored = (STORED_CHANNELS as readonly string[]).includes(channel);
        rows.push({
          id: reminderId(orgId, channel, w.id, w.scheduledFor, lead),
          eventSeq: null,
          orgId,
          channel,
          eventType: REMINDER_EVENT_TYPE,
          vendor: w.vendor,
          entityId: w.id,
          payloadJson,
          occurredAt: at,
          status: stored ? 'succeeded' : 'pending',
          nextAttemptAt: stored ? null : at,
          receiver: d.receiverOf(channel, state),
        });
      }
    }
  }
  return rows.length ? d.deliveries.insertNew(rows, now) : 0;
}
