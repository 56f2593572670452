import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { customPagesRepository } from '../store/repositories/custom-pages-repository.ts';
import { boardsRepository } from '../store/repositories/boards-repository.ts';
import { apiKeysRepository } from '../store/repositories/api-keys-repository.ts';
import { oauthRepository } from '../store/repositories/oauth-repository.ts';
import { slidingLimitsRepository } from '../store/repositories/sliding-limits-repository.ts';
import { sessionsRepository } from '../store/repositories/sessions-repository.ts';
import { usersRepository } from '../store/repositories/users-repository.ts';
import { organisationsRepository } from '../store/repositories/organisations-repository.ts';
import { invitationsRepository } from '../store/repositories/invitations-repository.ts';
import { auditRepository } from '../store/repositories/audit-repository.ts';
import { namedWatchlistsRepository } from '../store/repositories/named-watchlists-repository.ts';
import { scimRepository } from '../store/repositories/scim-repository.ts';
import { scimTokensRepository } from '../store/repositories/scim-tokens-repository.ts';
import { watchlistRepository } from '../store/repositories/watchlist-repository.ts';
import { dataModeRepository } from '../store/repositories/data-mode-repository.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { incidentsRepository } from '../store/repositories/incidents-repository.ts';
import { incidentTimingsRepository } from '../store/repositories/incident-timings-repository.ts';
import { searchRepository } from '../store/repositories/search-repository.ts';
import { maintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import { publicationsRepository } from '../store/repositories/publications-repository.ts';
import { sourcesRepository } from '../store/repositories/sources-repository.ts';
import { pushHooksRepository } from '../store/repositories/push-hooks-repository.ts';
import { sourceRepairsRepository } from '../store/repositories/source-repairs-repository.ts';
import { statusRepository } from '../store/repositories/status-repository.ts';
import { vendorsRepository } from '../store/repositories/vendors-repository.ts';
import { servicesRepository } from '../store/repositories/services-repository.ts';

/**
 * Repositories over one executor: the store's connection, or a transaction
 * (`repositoriesOn(trx)`) when several writes must commit together.
 */
export function repositoriesOn(db: Kysely<Database>) {
  return {
    vendors: vendorsRepository(db),
    sources: sourcesRepository(db),
    pushHooks: pushHooksRepository(db),
    sourceRepairs: sourceRepairsRepository(db),
    status: statusRepository(db),
    incidents: incidentsRepository(db),
    incidentTimings: incidentTimingsRepository(db),
    search: searchRepository(db),
    maintenances: maintenancesRepository(db),
    publications: publicationsRepository(db),
    events: eventsRepository(db),
    dataMode: dataModeRepository(db),
    watchlist: watchlistRepository(db),
    boards: boardsRepository(db),
    customPages: customPagesRepository(db),
    users: usersRepository(db),
    organisations: organisationsRepository(db),
    invitations: invitationsRepository(db),
    audit: auditRepository(db),
    namedWatchlists: namedWatchlistsRepository(db),
    services: servicesRepository(db),
    scim: scimRepository(db),
    scimTokens: scimTokensRepository(db),
    sessions: sessionsRepository(db),
    apiKeys: apiKeysRepository(db),
    oauth: oauthRepository(db),
    slidingLimits: slidingLimitsRepository(db),
  };
}
