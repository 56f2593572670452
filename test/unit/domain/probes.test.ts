import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addSample,
  anomalyOf,
  DEFAULT_PROBE_RULES,
  percentile,
  type ProbeSample,
  probeSpecProblem,
  relaxedRules,
  relaxLeft,
  statsOf,
} from '../../../src/domain/probes.ts';

// The probes' pure rules (docs/early-warning.md "Probes"): catalog validation, the baseline,
// the anomaly rule (never a single bad sample) and relaxation by dismissals.

let n = 0;
const ok = (ms: number): ProbeSample => ({ at: new Date(Date.UTC(2026, 10, 29, 12, 0, n++)).toISOString(), ok: true, latencyMs: ms, reason: null });
const bad = (reason = 'status 503'): ProbeSample => ({ at: new Date(Date.UTC(2026, 10, 29, 12, 0, n++)).toISOString(), ok: false, latencyMs: null, reason });
const run = (...s: ProbeSample[]) => s.reduce<ProbeSample[]>((acc, x) => addSample(acc, x), []);
const steady = (count: number, ms = 100) => Array.from({ length: count }, (_, i) => ok(ms + (i % 5)));

test('catalog probes: good ones pass, hostile ones are refused with a reason', () => {
  const hosts = ['github.com'];
  assert.equal(probeSpecProblem({ kind: 'http', url: 'https://api.github.com', expect: [200, 401] }, hosts), null);
  assert.equal(probeSpecProblem({ kind: 'tcp', host: 'api.github.com:443' }, hosts), null);
  assert.equal(probeSpecProblem({ kind: 'tls', host: 'api.github.com:443' }, hosts), null);
  assert.equal(probeSpecProblem({ kind: 'dns', name: 'api.github.com' }, hosts), null);
  assert.equal(probeSpecProblem({ kind: 'dns', name: 'api.github.com' }, undefined), null);
  const refused: [unknown, RegExp][] = [
    [null, /object/],
    [[], /object/],
    [{ kind: 'icmp', host: 'a.github.com' }, /kind/],
    [{ kind: 'http', url: 'http://api.github.com', expect: [200] }, /https/],
    [{ kind: 'http', url: 'https://u:p@api.github.com', expect: [200] }, /credentials/],
    [{ kind: 'http', url: 'https://api.github.com', expect: [] }, /expect/],
    [{ kind: 'http', url: 'https://api.github.com', expect: [700] }, /expect/],
    [{ kind: 'http', url: 'https://api.github.com', expect: ['200'] }, /expect/],
    [{ kind: 'http', url: 'https://api.github.com', expect: [200], extra: 1 }, /unknown field/],
    [{ kind: 'http', url: 'https://127.0.0.1/', expect: [200] }, /DNS name/],
    [{ kind: 'http', url: 'https://evil.example.com/', expect: [200] }, /hostnames/],
    [{ kind: 'http', url: 'https://notgithub.com/', expect: [200] }, /hostnames/],
    [{ kind: 'tcp', host: 'api.github.com' }, /host:port/],
    [{ kind: 'tcp', host: 'api.github.com:0' }, /host:port/],
    [{ kind: 'tcp', host: 'api.github.com:70000' }, /host:port/],
    [{ kind: 'tcp', host: '[::1]:443' }, /DNS name/],
    [{ kind: 'dns', name: 'API.GITHUB.COM' }, /DNS name/],
    [{ kind: 'dns', name: 'api.github.com\u0000' }, /DNS name/],
    [{ kind: 'dns', name: 42 }, /name/],
  ];
  for (const [spec, why] of refused) assert.match(probeSpecProblem(spec, hosts) ?? 'accepted', why, JSON.stringify(spec));
});

test('percentiles are nearest-rank; stats count failures and only good latencies', () => {
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([5], 99), 5);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), 5);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99), 10);
  const s = statsOf(run(ok(100), ok(300), bad(), ok(200)));
  assert.deepEqual(s, { samples: 4, p50: 200, p99: 300, errorRate: 0.25 });
  assert.deepEqual(statsOf([]), { samples: 0, p50: null, p99: null, errorRate: null });
});

test('the baseline keeps the window and forgets the oldest', () => {
  let b: ProbeSample[] = [];
  for (let i = 0; i < DEFAULT_PROBE_RULES.window + 10; i++) b = addSample(b, ok(i));
  assert.equal(b.length, DEFAULT_PROBE_RULES.window);
  assert.equal(b[0]!.latencyMs, 10);
});

test('a single failure, or two, never makes an anomaly; three of the last five do', () => {
  const base = steady(30);
  assert.equal(anomalyOf(run(...base, bad())).anomalous, false);
  assert.equal(anomalyOf(run(...base, bad(), ok(100), bad())).anomalous, false);
  const a = anomalyOf(run(...base, bad(), ok(100), bad(), bad('timeout')));
  assert.equal(a.anomalous, true);
  assert.match(a.reason, /3 of the last 5 .*timeout/);
  // Recovery: once fewer than three of the last five failed.
  assert.equal(anomalyOf(run(...base, bad(), bad(), bad(), ok(100), ok(100), ok(100))).anomalous, false);
});

test('one slow answer is no anomaly; three above p95 × 3 are; nothing is slow below the floor or without a baseline', () => {
  const base = steady(40, 100);
  assert.equal(anomalyOf(run(...base, ok(2000))).anomalous, false);
  assert.equal(anomalyOf(run(...base, ok(2000), ok(2000), ok(100))).anomalous, false);
  const a = anomalyOf(run(...base, ok(2000), ok(2100), ok(2200)));
  assert.equal(a.anomalous, true);
  assert.match(a.reason, /took over 312 ms \(p95 104 ms × 3\)/);
  // One earlier blip of slow answers does not lift the baseline out of reach (p95, not p99).
  assert.equal(anomalyOf(run(...steady(40, 100), ok(900), ok(900), ...steady(40, 100), ok(800), ok(800), ok(800))).anomalous, true);
  // A fast endpoint: 10 ms → 200 ms is slower but under the floor.
  assert.equal(anomalyOf(run(...steady(40, 10), ok(200), ok(200), ok(200))).anomalous, false);
  // Too few samples to know what slow is.
  assert.equal(anomalyOf(run(...steady(5, 100), ok(5000), ok(5000), ok(5000))).anomalous, false);
});

test('a slowdown stays slow after it has moved its own p95, for up to slowRunMax answers more', () => {
  const base = steady(100, 100);
  const slow = (k: number) => Array.from({ length: k }, () => ok(1000));
  // Ten slow answers after 100: the p95 of everything before the last three is 1000 ms (seven
  // slow answers are more than 5 %), yet the slowdown is measured against the answers before
  // enough of it: the last five, over a baseline where the slow ones are under 5 %.
  const ten = anomalyOf(run(...base, ...slow(10)));
  assert.equal(ten.anomalous, true);
  assert.match(ten.reason, /the last 5 answers took over 312 ms \(p95 104 ms × 3\)/);
  // Beyond slowN + slowRunMax answers it is the new normal.
  assert.equal(anomalyOf(run(...base, ...slow(DEFAULT_PROBE_RULES.slowN + DEFAULT_PROBE_RULES.slowRunMax + 8))).anomalous, false);
  // A fast answer in the middle ends the run: the three after it are judged on their own.
  assert.equal(anomalyOf(run(...base, ...slow(8), ok(100), ok(1000), ok(1000))).anomalous, false);
});

test('relaxation needs more failures and slower answers, and wears off a step a day', () => {
  const r1 = relaxedRules(DEFAULT_PROBE_RULES, 1);
  assert.deepEqual([r1.failN, r1.failM, r1.slowN, r1.slowFactor], [4, 6, 4, 4.5]);
  const capped = relaxedRules(DEFAULT_PROBE_RULES, 99);
  assert.equal(capped.failN, DEFAULT_PROBE_RULES.failN + DEFAULT_PROBE_RULES.maxRelax);
  const three = run(...steady(30), bad(), bad(), bad());
  assert.equal(anomalyOf(three).anomalous, true);
  assert.equal(anomalyOf(three, r1).anomalous, false);
  assert.equal(anomalyOf(run(...steady(30), bad(), bad(), bad(), bad()), r1).anomalous, true);
  const at = '2026-11-29T12:00:00.000Z';
  assert.equal(relaxLeft(2, at, new Date('2026-11-29T23:00:00Z')), 2);
  assert.equal(relaxLeft(2, at, new Date('2026-11-30T12:00:00Z')), 1);
  assert.equal(relaxLeft(2, at, new Date('2026-12-01T13:00:00Z')), 0);
  assert.equal(relaxLeft(0, null, new Date(at)), 0);
});
