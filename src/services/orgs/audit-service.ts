import { type AuditActor, type AuditLink, maskSecrets, verifyChain, type ChainProblem } from '../../domain/audit-chain.ts';
import type { Clock } from '../../domain/clock.ts';
import type { AuditQuery, AuditRepository } from '../../store/repositories/audit-repository.ts';
import type { UsersRepository } from '../../store/repositories/users-repository.ts';
import { roleRequired } from '../../domain/errors.ts';
import { roleAtLeast } from '../../domain/org-roles.ts';
import type { OrgViewer, Viewer } from '../context.ts';

// The audit log of each organisation (docs/teams.md, "Audit log"): who changed what,
// when, from where, with the state before and after. Secrets never reach it: values
// under the keys below are masked before the entry is hashed and written.

const SECRET_KEYS = new Set([
  'secret',
  'webhookSecret',
  'previousSecret',
  'routingKey',
  'pagerdutyRoutingKey',
  'integrationKey',
  'apiKey',
  'token',
  'botToken',
  'bearerToken',
  'password',
  'clientSecret',
  'webhookUrl',
  'teamsWebhookUrl',
  'googleChatWebhookUrl',
  'slackWebhookUrl',
  // Notification preference fields (snake_case, as the contract names them).
  'routing_key',
  'webhook_url',
  'api_key',
  'url',
  'feed_url',
  'previous_secret',
]);

export const OPERATOR_ACTOR: AuditActor = { kind: 'operator', id: null, label: 'operator (command line)', address: null };

export interface AuditEntryView {
  id: string;
  seq: number;
  at: string;
  actor: AuditActor;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  hash: string;
}

const view = (e: AuditLink): AuditEntryView => {
  const details = JSON.parse(e.details) as { before?: unknown; after?: unknown };
  return {
    id: e.id,
    seq: e.seq,
    at: e.at,
    actor: e.actor,
    action: e.action,
    target: e.target,
    before: details.before ?? null,
    after: details.after ?? null,
    hash: e.hash,
  };
};

export function auditService(d: { audit: AuditRepository; users: Pick<UsersRepository, 'findById'>; clock: Clock }) {
  /** Who did it, as the entry records it. */
  async function actorOf(v: Viewer): Promise<AuditActor> {
    const address = v.address ?? null;
    const email = v.userId ? ((await d.users.findById(v.userId))?.email ?? v.userId) : null;
    if (v.authKind === 'key') {
      const key = `key ${(v.keyId ?? '').slice(0, 8)}`;
      return { kind: 'key', id: v.keyId, label: email ? `${email} (${key})` : `organisation ${key}`, address };
    }
    return { kind: 'user', id: v.userId, label: email ?? 'unknown', address };
  }

  return {
    actorOf,

    /** Appends one entry; `before`/`after` are masked first. */
    async record(orgId: string, who: Viewer | AuditActor, action: string, target: string, change: { before?: unknown; after?: unknown } = {}): Promise<void> {
      const actor = 'label' in who ? who : await actorOf(who);
      const details = JSON.stringify({ before: maskSecrets(change.before ?? null, SECRET_KEYS), after: maskSecrets(change.after ?? null, SECRET_KEYS) });
      await d.audit.append({ orgId, at: d.clock.now().toISOString(), actor, action, target, details });
    },

    /** The filters of an audit read, once the caller is allowed to read the log (admins). */
    async readable<Q extends { orgId: string }>(viewer: OrgViewer, filters: Q): Promise<Q> {
      if (!roleAtLeast(viewer.role, 'admin')) throw roleRequired(viewer.role, 'admin');
      if (filters.orgId !== viewer.orgId) throw roleRequired(null, 'admin');
      return filters;
    },

    async list(q: AuditQuery): Promise<{ entries: AuditEntryView[]; nextBefore: number | null }> {
      const rows = await d.audit.list({ ...q, limit: q.limit + 1 });
      const more = rows.length > q.limit;
      const page = rows.slice(0, q.limit);
      return { entries: page.map(view), nextBefore: more ? page.at(-1)!.seq : null };
    },

    /** Every entry of an organisation matching the filters, newest first, in pages (exports). */
    async *all(q: Omit<AuditQuery, 'limit' | 'before'>): AsyncGenerator<AuditEntryView> {
      let before: number | undefined;
      for (;;) {
        const rows = await d.audit.list({ ...q, before, limit: 500 });
        for (const r of rows) yield view(r);
        if (rows.length < 500) return;
        before = rows.at(-1)!.seq;
      }
    },

    /** Checks every organisation's chain; returns what is wrong (empty: intact) and how much was read. */
    async verify(): Promise<{ organisations: number; entries: number; problems: ChainProblem[] }> {
      const problems: ChainProblem[] = [];
      let entries = 0;
      const orgs = await d.audit.chainedOrgs();
      for (const orgId of orgs) {
        const links: AuditLink[] = [];
        for await (const page of d.audit.chain(orgId)) links.push(...page);
        entries += links.length;
        problems.push(...verifyChain(orgId, links, await d.audit.head(orgId)));
      }
      return { organisations: orgs.length, entries, problems };
    },

    /** Drops entries older than `days` in every organisation (AUDIT_RETENTION_DAYS); returns how many. */
    async pruneAll(days: number): Promise<number> {
      const before = new Date(d.clock.now().getTime() - days * 86_400_000).toISOString();
      let removed = 0;
      for (const orgId of await d.audit.chainedOrgs()) removed += await d.audit.prune(orgId, before);
      return removed;
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
