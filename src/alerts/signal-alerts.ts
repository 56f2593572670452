import { payloadHits, signalHits } from '../domain/alert-impact.ts';
import { type AlertRoute, routeReceiver, routeRowStart, routeTakesSignal, routeTakesTransition } from '../domain/alert-routes.ts';
import type { ChannelAvailability } from '../domain/alerts.ts';
import { INTERNAL_AUDIENCE } from '../domain/audience.ts';
import { EARLY_WARNING_KIND, signalAlertPayload, signalAlertRowId, signalAlertType } from '../domain/signal-alerts.ts';
import type { AlertRoutesRepository } from '../store/repositories/alert-routes-repository.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';
import type { EarlyWarningRepository } from '../store/repositories/early-warning-repository.ts';
import type { NamedWatchlistsRepository } from '../store/repositories/named-watchlists-repository.ts';
import type { ServicesRepository } from '../store/repositories/services-repository.ts';
import type { StatusRepository } from '../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../store/repositories/vendors-repository.ts';
import type { WatchlistRepository } from '../store/repositories/watchlist-repository.ts';

// Early-warning alerts (docs/alerts.md "Early warning"): each transition of a signal (its
// opening, confirmation, clearing, dismissal) becomes one row per route of the signal's
// organisation that lists the `early_warning` kind and has the vendor in scope. Rows are
// keyed by (route, transition), so however many instances scan, and however often, each is
// written once; a scan reads the transitions of the last LOOKBACK_MS, so one that a crash
// kept from being alerted is alerted by the next scan of any instance.

/** How far back a scan reads transitions: longer than any pause of every dispatcher at once. */
export const SIGNAL_ALERT_LOOKBACK_MS = 6 * 3_600_000;
/** Transitions read per page; a scan reads every page of the lookback. */
const PAGE = 500;

export interface SignalAlertDeps {
  earlyWarning: Pick<EarlyWarningRepository, 'transitionsSince'>;
  routes: Pick<AlertRoutesRepository, 'enabled'>;
  watchlist: Pick<WatchlistRepository, 'watchers'>;
  namedWatchlists?: Pick<NamedWatchlistsRepository, 'vendorsOfLists'>;
  services?: Pick<ServicesRepository, 'forAlerts'>;
  status?: Pick<StatusRepository, 'componentNames'>;
  vendors?: Pick<VendorsRepository, 'names'>;
  deliveries: Pick<DeliveriesRepository, 'insertNew'>;
  available: ChannelAvailability;
}

/** Writes the rows of signal transitions not alerted yet; how many were new. */
export async function scanSignalAlerts(d: SignalAlertDeps, now: Date): Promise<number> {
  const from = new Date(now.getTime() - SIGNAL_ALERT_LOOKBACK_MS).toISOString();
  let added = 0;
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const page = await d.earlyWarning.transitionsSince(from, PAGE, after);
    if (page.length) added += await rowsFor(d, page, now);
    if (page.length < PAGE) return added;
    const last = page[page.length - 1]!.transition;
    after = { at: last.at, id: last.id };
  }
}

type Recent = Awaited<ReturnType<SignalAlertDeps['earlyWarning']['transitionsSince']>>;

/** The rows of one page of transitions, inserted unless they exist; how many were new. */
async function rowsFor(d: SignalAlertDeps, recent: Recent, now: Date): Promise<number> {
  const orgs = new Set(recent.map((r) => r.signal.orgId));
  // A route that does not open is left out: the next scans, over the lookback, take it once its key is back.
  const routes = (await d.routes.enabled()).routes.filter((r: AlertRoute) => orgs.has(r.orgId) && r.filters.kinds.includes(EARLY_WARNING_KIND));
  if (!routes.length) return 0;
  const vendors = [...new Set(recent.map((r) => r.signal.vendor))];
  const watchers = await d.watchlist.watchers(vendors);
  const listIds = [...new Set(routes.map((r) => r.filters.watchlistId).filter((id): id is string => id !== null))];
  const lists = listIds.length && d.namedWatchlists ? await d.namedWatchlists.vendorsOfLists(listIds) : new Map<string, string[]>();
  const scope = {
    onWatchlist: (orgId: string, vendor: string) => watchers.get(vendor)?.includes(orgId) ?? false,
    onNamedWatchlist: (id: string, vendor: string) => lists.get(id)?.includes(vendor) ?? false,
  };
  const { withServices, byOrg } = d.services ? await d.services.forAlerts([...orgs], vendors) : { withServices: new Set<string>(), byOrg: new Map() };
  const components = d.status && byOrg.size ? await d.status.componentNames(vendors) : new Map<string, Map<string, string>>();
  const names = d.vendors ? await d.vendors.names(INTERNAL_AUDIENCE, vendors) : new Map<string, string>();
  const rows: NewDelivery[] = [];
  for (const { transition, signal, evidence } of recent) {
    const vendorName = names.get(signal.vendor) ?? signal.vendor;
    const hits = withServices.has(signal.orgId)
      ? signalHits(
          signal,
          evidence.map((e) => e.summary),
          vendorName,
          byOrg.get(signal.orgId) ?? [],
          components.get(signal.vendor),
        )
      : null;
    const takers = routes.filter((r) => routeTakesSignal(r, signal, scope, hits, d.available) && routeTakesTransition(r, transition));
    if (!takers.length) continue;
    // The signal as it was at this transition: a later change must not rewrite an earlier alert's state.
    const payloadJson = JSON.stringify(signalAlertPayload({ signal: { ...signal, state: transition.to }, transition, evidence, vendorName }));
    for (const route of takers) {
      rows.push({
        id: signalAlertRowId(route.id, transition.id),
        eventSeq: null,
        orgId: signal.orgId,
        channel: route.destination.channel,
        eventType: signalAlertType(transition.to),
        vendor: signal.vendor,
        entityId: signal.id,
        payloadJson,
        occurredAt: transition.at,
        ...routeRowStart(route, now),
        receiver: routeReceiver(route.destination),
        routeId: route.id,
        ...(hits ? { affectedServicesJson: JSON.stringify(payloadHits(hits)) } : {}),
      });
    }
  }
  return rows.length ? d.deliveries.insertNew(rows, now) : 0;
}
