import { audienceOf } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import { SEVERITY_STRENGTH, type SignalSeverity } from '../../domain/early-warning.ts';
import { checkSignature, SIGNATURE_TOLERANCE_SECONDS } from '../../domain/early-warning-signing.ts';
import { DomainError } from '../../domain/errors.ts';
import type { EarlyWarningRepository } from '../../store/repositories/early-warning-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type UserViewer, type Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import { newWebhookSecret } from '../alerts/channel-secrets.ts';
import type { EarlyWarningService } from './early-warning-service.ts';

// Inbound signals (docs/early-warning.md "Inbound signals"): the organisation's systems
// post observations signed with its signing secret. Admins make or rotate the secret
// (shown once, sealed at rest). A call is checked in this order: the signature (401 for
// anything wrong, the same answer whether the organisation exists, has a secret or not),
// then the message id (409 for a replay), then the body's vendor (404).

export interface InboundBody {
  vendor: string;
  components?: string[];
  regions?: string[];
  severity: SignalSeverity;
  summary: string;
  externalId?: string;
}

/** How long message ids are kept for the replay check: twice the timestamp tolerance. */
const REPLAY_MEMORY_MS = 2 * SIGNATURE_TOLERANCE_SECONDS * 1000;
const REFUSED = "A valid signature is required: webhook-id, webhook-timestamp (within 300 s) and webhook-signature made with the organisation's signing secret";

export function inboundSignalsService(d: {
  earlyWarning: EarlyWarningRepository;
  signals: Pick<EarlyWarningService, 'observe'>;
  catalog: Pick<CatalogService, 'requireAll'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
}) {
  return {
    /** Whether the organisation has a secret, since when, its last four characters (admins). */
    async secretStatus(viewer: Viewer, orgId: string): Promise<{ configured: boolean; createdAt: string | null; lastFour: string | null }> {
      const owner = ownerOrg(await d.orgs.actingIn(viewer, orgId), 'admin');
      const s = await d.earlyWarning.secret(owner);
      return { configured: !!s, createdAt: s?.createdAt ?? null, lastFour: s ? `****${s.lastFour}` : null };
    },

    /** Makes the organisation's signing secret, or a new one in place of the old (admins, web session); shown once. */
    async rotateSecret(viewer: UserViewer, orgId: string): Promise<{ secret: string; createdAt: string }> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'admin');
      const had = !!(await d.earlyWarning.secret(owner));
      const secret = newWebhookSecret();
      const at = d.clock.now().toISOString();
      await d.earlyWarning.setSecret(owner, secret, v.userId, at);
      await d.audit.record(owner, v, had ? 'signal_secret.rotated' : 'signal_secret.created', `org:${owner}`, {
        after: { lastFour: `****${secret.slice(-4)}` },
      });
      return { secret, createdAt: at };
    },

    /**
     * Checks one call before its body is read for meaning: the signature over `raw`, the
     * body exactly as received, then the message id (taken once). Answers the message id.
     */
    async verify(orgId: string, headers: { id: unknown; timestamp: unknown; signature: unknown }, raw: string): Promise<string> {
      const stored = await d.earlyWarning.secret(orgId);
      const now = d.clock.now();
      // Without a secret, the signature is checked against a throwaway one: the same work and the same answer.
      const check = checkSignature(headers, raw, stored?.secret ?? newWebhookSecret(), now);
      if (!stored || !check.ok) throw new DomainError('unauthorized', REFUSED);
      const fresh = await d.earlyWarning.takeMessageId(orgId, check.messageId, now.toISOString(), new Date(now.getTime() - REPLAY_MEMORY_MS).toISOString());
      if (!fresh)
        throw new DomainError('conflict', 'This webhook-id was already received: a replay is refused (sign each message with a new id)', {
          parameter: 'webhook-id',
        });
      return check.messageId;
    },

    /** A verified call's body, validated by the route: an `inbound` observation. */
    async accept(orgId: string, messageId: string, body: InboundBody) {
      const [vendor] = await d.catalog.requireAll([body.vendor], audienceOf(orgId));
      return d.signals.observe(orgId, {
        source: 'inbound',
        vendor: vendor!,
        components: body.components,
        regions: body.regions,
        strength: SEVERITY_STRENGTH[body.severity],
        summary: body.summary,
        actor: `inbound:${messageId}`,
        externalId: body.externalId ?? null,
      });
    },
  };
}

export type InboundSignalsService = ReturnType<typeof inboundSignalsService>;
