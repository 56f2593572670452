import { DomainError } from '../../domain/errors.ts';
import type { OAuthRepository } from '../../store/repositories/oauth-repository.ts';
import type { Clock } from '../../domain/clock.ts';

// Applications a user connected through OAuth (MCP clients): listed in the
// account area and disconnected there, which revokes every token they hold.

export interface Connection {
  id: string;
  clientId: string;
  name: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function connectionsService(deps: { oauth: OAuthRepository; clock: Clock }) {
  return {
    async list(userId: string): Promise<Connection[]> {
      return (await deps.oauth.listUserGrants(userId)).map((g) => ({
        id: g.grantId,
        clientId: g.clientId,
        name: g.clientName,
        scope: g.scope,
        createdAt: g.createdAt,
        lastUsedAt: g.lastUsedAt,
      }));
    },

    async disconnect(userId: string, id: string): Promise<void> {
      if (!(await deps.oauth.revokeUserGrant(userId, id, deps.clock.now().toISOString()))) {
        throw new DomainError('not_found', 'No such connected application');
      }
    },
  };
}
