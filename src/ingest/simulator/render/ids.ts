// What the renderers need of a record id: the upstream id a real page would print.

/** Upstream part of a record id (the inverse of `recordId` in src/ingest/adapters/mapping.ts). */
export function upstreamIdOf(record: { id: string; vendor: string }): string {
  return record.id.startsWith(`${record.vendor}:`) ? record.id.slice(record.vendor.length + 1) : record.id;
}
