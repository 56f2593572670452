import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { coreMigration } from './0001-core.ts';
import { ingestMigration } from './0100-ingest.ts';
import { sourceObservationMigration } from './0150-source-observation.ts';
import { accessMigration } from './0200-access.ts';
import { userDataMigration } from './0300-user-data.ts';
import { alertsMigration } from './0400-alerts.ts';
import { oauthMigration } from './0500-oauth.ts';
import { eventOrderMigration } from './0600-event-order.ts';
import { alertSafetyMigration } from './0700-alert-safety.ts';
import { channelsMigration } from './0800-channels.ts';
import { boardsMigration } from './0910-boards.ts';
import { alertPayloadsMigration } from './0950-alert-payloads.ts';
import { customSourcesMigration } from './1000-custom-sources.ts';
import { freshnessIndexMigration } from './1100-freshness-index.ts';
import { slidingLimitsMigration } from './1200-sliding-limits.ts';
import { organisationsMigration } from './1300-organisations.ts';
import { namedWatchlistsMigration } from './1310-named-watchlists.ts';
import { alertRoutesMigration } from './1420-alert-routes.ts';
import { vendorHostnamesMigration } from './1460-vendor-hostnames.ts';
import { pushAndAdaptivePollingMigration } from './1470-push-and-adaptive-polling.ts';
import { earlyWarningMigration } from './1440-early-warning.ts';
import { deliveryAffectedServicesMigration } from './1480-delivery-affected-services.ts';
import { scimMigration } from './1400-scim.ts';
import { ssoMigration } from './1410-sso.ts';
import { servicesMigration } from './1430-services.ts';
import { probesMigration } from './1490-probes.ts';
import { earlyWarningAlertsMigration } from './1520-early-warning-alerts.ts';
import { privateProbesMigration } from './1560-private-probes.ts';
import { sourceRepairsMigration } from './1570-source-repairs.ts';
import { dispatchHoldsMigration } from './1580-dispatch-holds.ts';

// Migrations are listed here in order (no directory scanning), so bundling and
// tests see exactly the same set. Each area adds its own numbered file.
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001-core': coreMigration(dialect),
        '0100-ingest': ingestMigration(),
        '0150-source-observation': sourceObservationMigration(dialect),
        '0200-access': accessMigration(dialect),
        '0300-user-data': userDataMigration(dialect),
        '0400-alerts': alertsMigration(dialect),
        '0500-oauth': oauthMigration(dialect),
        '0600-event-order': eventOrderMigration(dialect),
        '0700-alert-safety': alertSafetyMigration(dialect),
        '0800-channels': channelsMigration(),
        '0910-boards': boardsMigration(dialect),
        '0950-alert-payloads': alertPayloadsMigration(),
        '1000-custom-sources': customSourcesMigration(dialect),
        '1100-freshness-index': freshnessIndexMigration(),
        '1200-sliding-limits': slidingLimitsMigration(),
        '1300-organisations': organisationsMigration(dialect),
        '1310-named-watchlists': namedWatchlistsMigration(),
        '1400-scim': scimMigration(),
        '1410-sso': ssoMigration(),
        '1420-alert-routes': alertRoutesMigration(),
        '1430-services': servicesMigration(),
        '1440-early-warning': earlyWarningMigration(),
        '1460-vendor-hostnames': vendorHostnamesMigration(),
        '1470-push-and-adaptive-polling': pushAndAdaptivePollingMigration(),
        '1480-delivery-affected-services': deliveryAffectedServicesMigration(),
        '1490-probes': probesMigration(),
        '1520-early-warning-alerts': earlyWarningAlertsMigration(),
        '1560-private-probes': privateProbesMigration(),
        '1570-source-repairs': sourceRepairsMigration(),
        '1580-dispatch-holds': dispatchHoldsMigration(),
      };
    },
  };
}
