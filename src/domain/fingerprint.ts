import { createHash } from 'node:crypto';

// A record's content fingerprint: SHA-256 of its JSON with keys sorted, minus the
// fields that change without the content changing. Equal fingerprints = nothing
// to write, no event.

/** Fields left out: upstreams bump `updatedAt` on edits we do not model (component links, typo fixes). */
const VOLATILE = new Set(['updatedAt']);

function stable(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => stable(v, false));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (top && VOLATILE.has(key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = stable(v, false);
    }
    return out;
  }
  return value;
}

export function fingerprint(record: object): string {
  return createHash('sha256')
    .update(JSON.stringify(stable(record, true)))
    .digest('hex');
}
