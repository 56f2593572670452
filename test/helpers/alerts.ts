import type { EventType } from '../../src/domain/events.ts';
import type { TestApp } from './app.ts';
import { createUser, send, type TestUser } from './users.ts';

// Events appended straight to the log (as ingestion does, in its own
// transaction) and users set up for alerts, for tests that exercise delivery
// rather than ingestion.

let n = 0;

export function incident(vendor: string, o: { impact?: string; components?: string[]; title?: string; id?: string } = {}) {
  const at = new Date().toISOString();
  return {
    id: o.id ?? `${vendor}-test-${++n}`,
    vendor,
    vendorName: vendor,
    title: o.title ?? `Incident ${n}`,
    status: 'investigating',
    sourceStatus: 'investigating',
    impact: o.impact ?? 'major',
    startedAt: at,
    updatedAt: at,
    resolvedAt: null,
    components: o.components ?? [],
    updates: [{ status: 'investigating', body: 'Looking into it', createdAt: at }],
    url: null,
    source: 'test',
    durationMinutes: null,
  };
}

export async function emit(t: TestApp, type: EventType, payload: ReturnType<typeof incident>, occurredAt = new Date().toISOString()) {
  return t.repos.events.append(t.store.db, {
    type,
    vendor: payload.vendor,
    entityKind: type.startsWith('incident.') ? 'incident' : 'maintenance',
    entityId: payload.id,
    occurredAt,
    payload,
  } as never);
}

/** A user watching `vendors` with a webhook to `url`; returns the user and the signing secret. */
export async function webhookUser(
  t: TestApp,
  vendors: string[],
  url: string,
  extra: Record<string, unknown> = {},
): Promise<{ user: TestUser; secret: string }> {
  const user = await createUser(t, 'pro');
  const w = await send(`${t.api}/watchlist`, 'PUT', user.headers, { vendors });
  if (w.status !== 200) throw new Error(`watchlist: ${JSON.stringify(w.body)}`);
  const p = await send(`${t.api}/notification-preferences`, 'PUT', user.headers, { webhook: { enabled: true, url }, in_app: { enabled: false }, ...extra });
  if (p.status !== 200) throw new Error(`preferences: ${JSON.stringify(p.body)}`);
  return { user, secret: p.body.preferences.webhook.secret };
}
