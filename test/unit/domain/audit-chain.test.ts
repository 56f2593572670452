import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AuditLink, auditHash, GENESIS_HASH, maskSecrets, verifyChain } from '../../../src/domain/audit-chain.ts';
import { csvCell, csvLine } from '../../../src/domain/csv.ts';
import { canGrant, lowerRole, roleAtLeast } from '../../../src/domain/org-roles.ts';

// The audit chain's tamper evidence, the CSV export's cell rules and the role order
// (docs/teams.md, "Audit log", "Roles").

function chain(n: number): AuditLink[] {
  const out: AuditLink[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const fields = {
      orgId: 'o',
      seq,
      id: `id${seq}`,
      at: `2026-01-01T00:00:0${seq}.000Z`,
      actor: { kind: 'user' as const, id: 'u', label: 'ann@example.com', address: '192.0.2.1' },
      action: 'watchlist.replaced',
      target: 'watchlist',
      details: JSON.stringify({ before: { vendors: [] }, after: { vendors: [String(seq)] } }),
    };
    const hash = auditHash(prev, fields);
    out.push({ ...fields, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

const headOf = (links: AuditLink[], floor = { floorSeq: 0, floorHash: GENESIS_HASH }) => ({ seq: links.at(-1)!.seq, hash: links.at(-1)!.hash, ...floor });

describe('audit chain', () => {
  test('an intact chain verifies', () => {
    const c = chain(5);
    assert.deepEqual(verifyChain('o', c, headOf(c)), []);
  });

  test('an edited field is found at its entry', () => {
    const c = chain(5);
    const edited = c.map((e) => (e.seq === 3 ? { ...e, actor: { ...e.actor, label: 'mallory@example.com' } } : e));
    assert.deepEqual(verifyChain('o', edited, headOf(c)), [{ orgId: 'o', seq: 3, problem: 'hash_mismatch' }]);
  });

  test('an entry rewritten with a fresh hash breaks the next link', () => {
    const c = chain(5);
    const forged = { ...c[2]!, target: 'vendor:evil' };
    forged.hash = auditHash(forged.prevHash, forged);
    const problems = verifyChain(
      'o',
      c.map((e) => (e.seq === 3 ? forged : e)),
      headOf(c),
    );
    assert.deepEqual(problems, [{ orgId: 'o', seq: 4, problem: 'broken_link' }]);
  });

  test('a deleted middle entry and deleted newest entries are found', () => {
    const c = chain(5);
    const gap = verifyChain(
      'o',
      c.filter((e) => e.seq !== 2),
      headOf(c),
    );
    assert.ok(gap.some((p) => p.problem === 'missing_entries' && p.seq === 2));
    const cut = verifyChain('o', c.slice(0, 3), headOf(c));
    assert.deepEqual(cut, [{ orgId: 'o', seq: 5, problem: 'head_mismatch' }]);
  });

  test('after retention the chain verifies from its floor, and a row removed below it otherwise is still found', () => {
    const c = chain(6);
    const floor = { floorSeq: 2, floorHash: c[1]!.hash };
    assert.deepEqual(verifyChain('o', c.slice(2), headOf(c, floor)), []);
    assert.ok(verifyChain('o', c.slice(3), headOf(c, floor)).length > 0);
  });

  test('secrets are masked by name at any depth; empty values stay as they are', () => {
    const keys = new Set(['routing_key', 'url']);
    assert.deepEqual(maskSecrets({ pagerduty: { routing_key: 'R0abc', enabled: true }, webhook: { url: null }, list: [{ url: 'https://x' }] }, keys), {
      pagerduty: { routing_key: '••••', enabled: true },
      webhook: { url: null },
      list: [{ url: '••••' }],
    });
  });
});

describe('CSV cells', () => {
  test('quoted, quotes doubled, CRLF lines', () => {
    assert.equal(csvLine(['a', 'b"c', null, 3]), '"a","b""c","","3"\r\n');
  });

  test('a cell a spreadsheet would run as a formula starts with an apostrophe', () => {
    for (const v of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx']) assert.equal(csvCell(v).slice(0, 2), `"'`, JSON.stringify(v));
    assert.equal(csvCell('ann@example.com'), '"ann@example.com"');
    assert.equal(csvCell({ name: '=x' }), '"{""name"":""=x""}"');
  });
});

describe('roles', () => {
  test('each role holds the rights of those below it', () => {
    assert.ok(roleAtLeast('owner', 'viewer') && roleAtLeast('admin', 'editor') && !roleAtLeast('editor', 'admin') && !roleAtLeast(null, 'viewer'));
  });
  test('admins grant up to their own role; editors and viewers grant nothing', () => {
    assert.ok(canGrant('admin', 'admin') && !canGrant('admin', 'owner') && canGrant('owner', 'owner'));
    assert.ok(!canGrant('editor', 'viewer') && !canGrant('viewer', 'viewer'));
    assert.equal(lowerRole('admin', 'viewer'), 'viewer');
  });
});
