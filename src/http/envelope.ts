import type { DataWindow } from '../domain/time-window.ts';

export interface EnvelopeContext {
  source: 'live' | 'demo';
  now: Date;
  lastUpdated: string | null;
}

/** The contract's list envelope; single-object endpoints answer one item. */
export function envelope<T>(ctx: EnvelopeContext, items: T[], extra: { total?: number; dataWindow?: DataWindow; hint?: string } = {}) {
  return {
    success: true as const,
    items,
    ...(extra.total !== undefined ? { total: extra.total } : {}),
    fetchedAt: ctx.now.toISOString(),
    source: ctx.source,
    lastUpdated: ctx.lastUpdated,
    ...(extra.dataWindow ? { dataWindow: extra.dataWindow } : {}),
    ...(extra.hint ? { hint: extra.hint } : {}),
  };
}

/** `vendor` (or its alias `vendors`) as a slug list. */
export function vendorFilter(q: { vendor?: string; vendors?: string }): string[] | undefined {
  const raw = q.vendor ?? q.vendors;
  return raw ? raw.split(',') : undefined;
}
