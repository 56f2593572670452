import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  canMove,
  confidenceOf,
  DEFAULT_RULES,
  fuse,
  incidentConfirms,
  isQuiet,
  type Observation,
  overlapOrUnnamed,
  scopeOf,
  type Signal,
  takesObservations,
} from '../../../src/domain/early-warning.ts';
import { checkSignature, signatureOf } from '../../../src/domain/early-warning-signing.ts';

// The pure rules of early warning (docs/early-warning.md): fusion, the lifecycle, the
// windows, and the signature of inbound signals.

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
let n = 0;
const obs = (o: Partial<Observation> & { min: number }): Observation => ({
  id: `obs_${++n}`,
  orgId: 'org1',
  source: 'probe',
  vendor: 'github',
  components: [],
  regions: [],
  strength: 0.9,
  summary: '',
  actor: 'a',
  ...o,
  observedAt: at(o.min).toISOString(),
});
const signal = (o: Partial<Signal> = {}): Signal => ({
  id: 'sig_1',
  orgId: 'org1',
  vendor: 'github',
  state: 'suspected',
  confidence: 0.8,
  components: [],
  regions: [],
  openedAt: at(0).toISOString(),
  updatedAt: at(0).toISOString(),
  lastObservedAt: at(5).toISOString(),
  incidentId: null,
  evidence: [],
  ...o,
});

describe('early warning: fusion', () => {
  test('a single bad sample opens nothing, however strong', () => {
    for (const source of ['probe', 'telemetry', 'inbound', 'report'] as const) {
      assert.deepEqual(fuse([obs({ source, strength: 1, min: 0 })], at(0)), { open: false }, source);
    }
  });

  test('two independent sources agreeing within the window open a signal', () => {
    const r = fuse([obs({ source: 'inbound', strength: 0.4, min: 0 }), obs({ source: 'report', strength: 0.5, min: 10 })], at(10));
    assert.equal(r.open, true);
    if (!r.open) return;
    assert.equal(r.evidence.length, 2);
    // 1 − (0.6 × 0.5)
    assert.equal(r.confidence, 0.7);
    assert.match(r.reason, /inbound and report agree/);
  });

  test('agreement needs both inside the window, and each above the agreement floor', () => {
    const old = obs({ source: 'inbound', min: 0 });
    const late = obs({ source: 'report', strength: 0.5, min: 16 });
    assert.equal(fuse([old, late], at(16)).open, false, 'the first fell out of the 15 min window');
    assert.equal(fuse([old, late], at(15.5)).open, false, 'the second is in the future');
    const weak = obs({ source: 'telemetry', strength: 0.2, min: 1 });
    assert.equal(fuse([obs({ source: 'inbound', strength: 0.5, min: 0 }), weak], at(2)).open, false);
    assert.equal(fuse([obs({ source: 'inbound', strength: 0.5, min: 0 }), obs({ source: 'telemetry', strength: 0.3, min: 1 })], at(2)).open, true);
  });

  test('two samples of the same kind are not independent', () => {
    assert.equal(fuse([obs({ source: 'inbound', strength: 0.7, min: 0 }), obs({ source: 'inbound', strength: 0.7, min: 1, actor: 'b' })], at(1)).open, false);
  });

  test('one strong source opens only once it has held for its duration', () => {
    const probes = [0, 1, 2, 3].map((m) => obs({ source: 'probe', strength: 0.85, min: m }));
    assert.equal(fuse(probes.slice(0, 3), at(2)).open, false, '2 min of the 3 it must hold');
    const r = fuse(probes, at(3));
    assert.equal(r.open, true);
    if (r.open) {
      assert.equal(r.evidence.length, 4);
      assert.equal(r.confidence, 0.85);
    }
  });

  test('a weak sample breaks the run; the run counts from after it', () => {
    const xs = [
      obs({ source: 'probe', strength: 0.9, min: 0 }),
      obs({ source: 'probe', strength: 0.9, min: 1 }),
      obs({ source: 'probe', strength: 0.1, min: 2 }),
      obs({ source: 'probe', strength: 0.9, min: 3 }),
      obs({ source: 'probe', strength: 0.9, min: 4 }),
    ];
    assert.equal(fuse(xs, at(4)).open, false);
    assert.equal(fuse([...xs, obs({ source: 'probe', strength: 0.9, min: 5 }), obs({ source: 'probe', strength: 0.9, min: 6 })], at(6)).open, true);
  });

  test('reports alone need a quorum of distinct members', () => {
    const same = [0, 1, 2, 3].map((m) => obs({ source: 'report', strength: 0.5, min: m, actor: 'user:1' }));
    assert.equal(fuse(same, at(3)).open, false, 'one member reporting four times');
    const three = ['user:1', 'user:2', 'user:3'].map((actor, i) => obs({ source: 'report', strength: 0.5, min: i, actor }));
    assert.equal(fuse(three.slice(0, 2), at(2)).open, false);
    assert.equal(fuse(three, at(2)).open, true);
  });

  test('observations at or before `since` (the last closed signal) never count again', () => {
    const xs = [obs({ source: 'inbound', min: 0 }), obs({ source: 'report', strength: 0.5, min: 1 })];
    assert.equal(fuse(xs, at(2), DEFAULT_RULES, at(1).toISOString()).open, false);
    assert.equal(
      fuse([...xs, obs({ source: 'report', strength: 0.5, min: 3 }), obs({ source: 'inbound', min: 3 })], at(3), DEFAULT_RULES, at(1).toISOString()).open,
      true,
    );
  });

  test('the rules can be tuned', () => {
    const xs = [0, 1].map((m) => obs({ source: 'probe', strength: 0.9, min: m }));
    assert.equal(fuse(xs, at(1)).open, false);
    const rules = { ...DEFAULT_RULES, solo: { ...DEFAULT_RULES.solo, probe: { threshold: 0.8, holdMs: 60_000, minSamples: 2, distinctActors: 1 } } };
    assert.equal(fuse(xs, at(1), rules).open, true);
    const off = { ...DEFAULT_RULES, solo: { ...DEFAULT_RULES.solo, probe: null } };
    assert.equal(
      fuse(
        [0, 1, 2, 3, 4].map((m) => obs({ source: 'probe', min: m })),
        at(4),
        off,
      ).open,
      false,
    );
  });

  test('confidence: strongest per kind, combined, capped', () => {
    assert.equal(confidenceOf([]), 0);
    assert.equal(confidenceOf([obs({ strength: 0.5, min: 0 }), obs({ strength: 0.6, min: 0 })]), 0.6);
    assert.equal(confidenceOf([obs({ source: 'probe', strength: 1, min: 0 }), obs({ source: 'report', strength: 1, min: 0 })]), 0.99);
  });

  test('scope: union of components and regions, case kept from the first seen', () => {
    const s = scopeOf([obs({ min: 0, components: ['API'], regions: ['eu'] }), obs({ min: 1, components: ['api', 'Git'], regions: [] })]);
    assert.deepEqual(s, { components: ['API', 'Git'], regions: ['eu'] });
  });
});

describe('early warning: lifecycle', () => {
  const incident = (o: Partial<{ vendor: string; components: string[]; regions: string[]; startedAt: string }> = {}) => ({
    id: 'inc_1',
    vendor: 'github',
    components: [],
    regions: [],
    startedAt: at(10).toISOString(),
    ...o,
  });

  test('an incident of the same vendor in the window confirms', () => {
    assert.equal(incidentConfirms(signal(), incident()), true);
    assert.equal(incidentConfirms(signal(), incident({ vendor: 'stripe' })), false);
    assert.equal(incidentConfirms(signal(), incident({ startedAt: at(-31).toISOString() })), false, 'began well before the signal');
    assert.equal(incidentConfirms(signal(), incident({ startedAt: at(-29).toISOString() })), true);
    assert.equal(incidentConfirms(signal(), incident({ startedAt: at(5 + 121).toISOString() })), false, 'long after the last observation');
    assert.equal(incidentConfirms(signal(), incident({ startedAt: 'not a date' })), false);
  });

  test('components and regions must overlap when both name any', () => {
    const s = signal({ components: ['API Requests'], regions: ['EU'] });
    assert.equal(incidentConfirms(s, incident({ components: ['api requests'] })), true);
    assert.equal(incidentConfirms(s, incident({ components: ['Pages'] })), false);
    assert.equal(incidentConfirms(s, incident({ regions: ['us'] })), false);
    assert.equal(incidentConfirms(s, incident({ components: [], regions: ['eu', 'us'] })), true);
    assert.equal(overlapOrUnnamed([], ['x']), true);
  });

  test('a suspected or cleared signal is confirmed; a confirmed or dismissed one is not', () => {
    for (const state of ['confirmed', 'dismissed'] as const) assert.equal(incidentConfirms(signal({ state }), incident()), false, state);
    // A vendor that posts after the signal cleared still confirms it, within the same window.
    assert.equal(incidentConfirms(signal({ state: 'cleared' }), incident()), true);
    assert.equal(incidentConfirms(signal({ state: 'cleared' }), incident({ startedAt: at(5 + 121).toISOString() })), false, 'long after the last observation');
    assert.equal(canMove('cleared', 'confirmed'), true);
  });

  test('quiet: a suspected signal clears after the quiet period without observations', () => {
    assert.equal(isQuiet(signal(), at(5 + 29)), false);
    assert.equal(isQuiet(signal(), at(5 + 30)), true);
    assert.equal(isQuiet(signal({ state: 'confirmed' }), at(500)), false, 'a confirmed signal is not cleared');
  });

  test('transitions the lifecycle allows', () => {
    assert.equal(canMove('suspected', 'confirmed'), true);
    assert.equal(canMove('suspected', 'cleared'), true);
    assert.equal(canMove('suspected', 'dismissed'), true);
    assert.equal(canMove('confirmed', 'dismissed'), true);
    assert.equal(canMove('confirmed', 'suspected'), false);
    assert.equal(canMove('cleared', 'suspected'), false);
    assert.equal(canMove('dismissed', 'cleared'), false);
  });

  test('which signals still take observations', () => {
    assert.equal(takesObservations(signal(), at(100)), true);
    assert.equal(takesObservations(signal({ state: 'confirmed' }), at(20)), true);
    assert.equal(takesObservations(signal({ state: 'confirmed' }), at(35)), false);
    assert.equal(takesObservations(signal({ state: 'dismissed' }), at(6)), false);
  });
});

describe('early warning: inbound signatures', () => {
  const secret = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;
  const body = '{"vendor":"github"}';
  const now = new Date(T0);
  const ts = Math.floor(T0 / 1000);
  const headers = (o: Partial<{ id: unknown; timestamp: unknown; signature: unknown }> = {}) => ({
    id: 'msg_1',
    timestamp: String(ts),
    signature: signatureOf(secret, 'msg_1', ts, body),
    ...o,
  });

  test('a good signature passes, also among others (rotation)', () => {
    assert.deepEqual(checkSignature(headers(), body, secret, now), { ok: true, messageId: 'msg_1', timestamp: ts });
    assert.equal(checkSignature(headers({ signature: `v1,AAAA ${signatureOf(secret, 'msg_1', ts, body)}` }), body, secret, now).ok, true);
  });

  test('another body, id, secret or timestamp fails', () => {
    assert.equal(checkSignature(headers(), `${body} `, secret, now).ok, false);
    assert.equal(checkSignature(headers({ id: 'msg_2' }), body, secret, now).ok, false);
    assert.equal(checkSignature(headers(), body, `whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`, now).ok, false);
    assert.equal(checkSignature(headers({ timestamp: String(ts + 1) }), body, secret, now).ok, false);
  });

  test('a timestamp beyond the tolerance fails even when signed', () => {
    const old = ts - 301;
    const r = checkSignature(headers({ timestamp: String(old), signature: signatureOf(secret, 'msg_1', old, body) }), body, secret, now);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.why, /300 s/);
    const ok = ts - 299;
    assert.equal(checkSignature(headers({ timestamp: String(ok), signature: signatureOf(secret, 'msg_1', ok, body) }), body, secret, now).ok, true);
  });

  test('malformed headers fail', () => {
    for (const h of [
      { id: undefined },
      { id: 'a b' },
      { id: 'x'.repeat(129) },
      { timestamp: '1e9' },
      { timestamp: undefined },
      { signature: undefined },
      { signature: 'x'.repeat(2000) },
    ]) {
      assert.equal(checkSignature(headers(h), body, secret, now).ok, false, JSON.stringify(h));
    }
  });
});
