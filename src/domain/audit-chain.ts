import { createHash } from 'node:crypto';

// The audit log's hash chain (docs/teams.md, "Audit log"). Each entry's hash covers
// the previous entry's hash and every field of the entry, so editing a row changes its
// hash and breaks the next link, deleting a row leaves a gap in `seq` or a link that
// does not match, and deleting the newest rows leaves the organisation's head pointing
// past the end. Pure: hashing only.

export const GENESIS_HASH = '0'.repeat(64);

export type AuditActorKind = 'user' | 'key' | 'scim' | 'operator' | 'system';

export interface AuditActor {
  kind: AuditActorKind;
  /** User or key id; null for the operator CLI and the system. */
  id: string | null;
  /** What a person reads: an e-mail address, a key's name and prefix, "operator". */
  label: string;
  /** Client address of the request, when there was one. */
  address: string | null;
}

export interface AuditFields {
  orgId: string;
  seq: number;
  id: string;
  at: string;
  actor: AuditActor;
  action: string;
  target: string;
  /** JSON text of `{before, after}` as stored. */
  details: string;
}

export interface AuditLink extends AuditFields {
  prevHash: string;
  hash: string;
}

export function auditHash(prevHash: string, e: AuditFields): string {
  const fields = [e.orgId, e.seq, e.id, e.at, e.actor.kind, e.actor.id, e.actor.label, e.actor.address, e.action, e.target, e.details];
  return createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}

export interface ChainProblem {
  orgId: string;
  seq: number;
  problem: 'hash_mismatch' | 'broken_link' | 'missing_entries' | 'head_mismatch';
}

/**
 * Checks one organisation's entries (in `seq` order) against each other and against
 * the stored head, starting at the head's floor (entries removed by retention);
 * returns every problem found (empty: intact).
 */
export function verifyChain(
  orgId: string,
  entries: AuditLink[],
  head: { seq: number; hash: string; floorSeq: number; floorHash: string } | null,
): ChainProblem[] {
  const problems: ChainProblem[] = [];
  let prev = head?.floorHash ?? GENESIS_HASH;
  let expectedSeq = (head?.floorSeq ?? 0) + 1;
  for (const e of entries) {
    if (e.seq !== expectedSeq) problems.push({ orgId, seq: expectedSeq, problem: 'missing_entries' });
    if (e.prevHash !== prev) problems.push({ orgId, seq: e.seq, problem: 'broken_link' });
    if (auditHash(e.prevHash, e) !== e.hash) problems.push({ orgId, seq: e.seq, problem: 'hash_mismatch' });
    prev = e.hash;
    expectedSeq = e.seq + 1;
  }
  const last = entries.at(-1);
  if (head && (head.seq !== (last?.seq ?? head.floorSeq) || head.hash !== (last?.hash ?? head.floorHash))) {
    problems.push({ orgId, seq: head.seq, problem: 'head_mismatch' });
  }
  if (!head && last) problems.push({ orgId, seq: last.seq, problem: 'head_mismatch' });
  return problems;
}

/** Replaces secret values in an audit document by a mask, by key name, at any depth. */
export function maskSecrets(value: unknown, secretKeys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, secretKeys));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, secretKeys.has(k) && v !== null && v !== undefined && v !== '' ? '••••' : maskSecrets(v, secretKeys)]),
    );
  }
  return value;
}
