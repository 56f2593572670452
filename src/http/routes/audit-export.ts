import { csvLine } from '../../domain/csv.ts';
import type { AuditEntryView } from '../../services/orgs/audit-service.ts';

// The audit log as a download (docs/teams.md, "Audit log"): every matching entry, newest
// first, with the hash that ties it into the chain; as CSV for spreadsheets, or as JSON lines
// (one entry object per line, the shape of the JSON pages) for log pipelines.

const HEADER = ['seq', 'at', 'actor_kind', 'actor', 'address', 'action', 'target', 'before', 'after', 'hash'];

export async function auditCsv(entries: AsyncIterable<AuditEntryView>): Promise<string> {
  let out = csvLine(HEADER);
  for await (const e of entries) out += csvLine([e.seq, e.at, e.actor.kind, e.actor.label, e.actor.address, e.action, e.target, e.before, e.after, e.hash]);
  return out;
}

export async function auditNdjson(entries: AsyncIterable<AuditEntryView>): Promise<string> {
  let out = '';
  for await (const e of entries) out += `${JSON.stringify(e)}\n`;
  return out;
}
