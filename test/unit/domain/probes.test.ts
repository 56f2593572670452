import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuse, type Observation } from '../../../src/domain/early-warning.ts';
import {
  addSample,
  anomalyOf,
  DEFAULT_PROBE_RULES,
  PROBE_FAILING_STRENGTH,
  PROBE_RECOVERED_STRENGTH,
  percentile,
  type ProbeSample,
  probeSpecProblem,
  probeStep,
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

test('a single failure never makes an anomaly; two of the last three do', () => {
  const base = steady(30);
  assert.equal(anomalyOf(run(...base, bad())).anomalous, false);
  assert.equal(anomalyOf(run(...base, bad(), ok(100), ok(100), bad())).anomalous, false);
  const a = anomalyOf(run(...base, bad(), ok(100), bad('timeout')));
  assert.equal(a.anomalous, true);
  assert.match(a.reason, /2 of the last 3 .*timeout/);
  assert.equal(anomalyOf(run(...base, bad(), bad(), ok(100), ok(100))).anomalous, false);
});

// Samples 45 s apart through `probeStep`, as the probes' use case makes observations of them,
// then fused with the default rules: whether and when a signal opens.
const T = Date.UTC(2026, 10, 30, 9, 0, 0);
const timeline = (pattern: string, baseline = 40) => {
  const out: { samples: ProbeSample[]; observations: Observation[]; opened: number | null; strengths: (number | null)[] } = {
    samples: [],
    observations: [],
    opened: null,
    strengths: [],
  };
  let anomalous = false;
  const chars = [...'.'.repeat(baseline), ...pattern];
  chars.forEach((c, i) => {
    const at = new Date(T + i * 45_000).toISOString();
    const sample: ProbeSample =
      c === 'x' ? { at, ok: false, latencyMs: null, reason: 'status 503' } : { at, ok: true, latencyMs: c === 's' ? 2000 : 100 + (i % 5), reason: null };
    out.samples = addSample(out.samples, sample);
    const step = probeStep(out.samples, anomalous);
    anomalous = step.anomalous;
    if (i >= baseline) out.strengths.push(step.strength);
    if (step.strength === null) return;
    out.observations.push({
      id: `o${i}`,
      orgId: 'o',
      source: 'probe',
      vendor: 'v',
      components: [],
      regions: [],
      strength: step.strength,
      observedAt: at,
      summary: '',
      actor: 'probe:p',
    });
    if (out.opened === null && fuse(out.observations, new Date(at)).open) out.opened = i - baseline;
  });
  return out;
};

test('an outage failing every check opens a signal at the sixth check, a blip of three failures never does', () => {
  // Before: three failures to become anomalous, then a 3-minute hold: the seventh check.
  const outage = timeline('xxxxxxxxxx');
  assert.equal(outage.opened, 5, 'observations from the second failure, held 2.5 min');
  // A blip: three failed checks (about two minutes), then the endpoint answers again.
  const blip = timeline('xxx.........');
  assert.equal(blip.opened, null);
  assert.deepEqual(
    blip.strengths.filter((x) => x !== null),
    [PROBE_FAILING_STRENGTH, PROBE_FAILING_STRENGTH, PROBE_RECOVERED_STRENGTH],
    'two strong observations, then one weak once at most one of the last eight failed',
  );
  // A stray failure shortly after the blip is no strong observation: one of the last three.
  const stray = timeline('xxx..x......');
  assert.equal(stray.opened, null);
  assert.equal(stray.strengths[5], null);
});

test('a partial outage failing about half the checks keeps its run: good answers in between make no observation', () => {
  // The old rule (3 of 5, a weak observation whenever it stopped holding) broke this run at
  // every second good answer and never held three minutes.
  const partial = timeline('xx.x.xx..x.xx.x');
  assert.ok(partial.opened !== null && partial.opened <= 6, `opened at check ${partial.opened}`);
  assert.ok(!partial.strengths.includes(PROBE_RECOVERED_STRENGTH), 'never recovered in between');
  // The same failures, spread too thin to be the rule (one in three): nothing opens.
  assert.equal(timeline('x..x..x..x..x..x..').opened, null);
});

test('a slowdown with stray failures and an answer dipping under the limit stays one slowdown', () => {
  const base = steady(40, 100);
  const s = (ms = 2000) => ok(ms);
  // Before: a failed answer ended the run, and the three slow answers after it stood alone.
  assert.equal(anomalyOf(run(...base, s(), s(), bad(), s())).anomalous, true);
  // One answer in four under the limit (but over the floor) does not end it; two in a row do.
  assert.equal(anomalyOf(run(...base, s(), s(), s(), ok(300), s())).anomalous, true);
  assert.equal(anomalyOf(run(...base, s(), s(), s(), ok(300), ok(300), s())).anomalous, false);
  // A slow blip of two answers is none.
  assert.equal(anomalyOf(run(...base, s(), s(), ok(100))).anomalous, false);
  // Through probeStep: a slowdown with a stray failure opens; the failure is a strong observation.
  const slow = timeline('sssxsss');
  assert.ok(slow.opened !== null, 'opened');
  assert.equal(slow.strengths[3], PROBE_FAILING_STRENGTH);
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
  assert.deepEqual([r1.failN, r1.failM, r1.slowN, r1.slowFactor], [3, 4, 4, 4.5]);
  const capped = relaxedRules(DEFAULT_PROBE_RULES, 99);
  assert.equal(capped.failN, DEFAULT_PROBE_RULES.failN + DEFAULT_PROBE_RULES.maxRelax);
  const two = run(...steady(30), bad(), bad());
  assert.equal(anomalyOf(two).anomalous, true);
  assert.equal(anomalyOf(two, r1).anomalous, false);
  assert.equal(anomalyOf(run(...steady(30), bad(), bad(), bad()), r1).anomalous, true);
  const at = '2026-11-29T12:00:00.000Z';
  assert.equal(relaxLeft(2, at, new Date('2026-11-29T23:00:00Z')), 2);
  assert.equal(relaxLeft(2, at, new Date('2026-11-30T12:00:00Z')), 1);
  assert.equal(relaxLeft(2, at, new Date('2026-12-01T13:00:00Z')), 0);
  assert.equal(relaxLeft(0, null, new Date(at)), 0);
});
