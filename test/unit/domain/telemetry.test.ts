import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectorProblems, evaluate, readPromAnswer, type TelemetryQuery } from '../../../src/domain/telemetry.ts';

// Telemetry connectors' pure rules (docs/early-warning.md "Prometheus connectors"): reading
// Prometheus answers (errors, NaN/Inf, not JSON) and the threshold-for-duration rule.

const vec = (...values: string[]) =>
  JSON.stringify({
    status: 'success',
    data: { resultType: 'vector', result: values.map((v, i) => ({ metric: { server_address: `h${i}` }, value: [1767225600.123, v] })) },
  });

test('answers: the highest finite value of a vector, a scalar, errors with their type, NaN and Inf as no reading', () => {
  assert.deepEqual(readPromAnswer(200, vec('0.042', '0.3', '0.1')), { ok: true, value: 0.3, series: 3 });
  assert.deepEqual(readPromAnswer(200, vec()), { ok: true, value: null, series: 0 });
  assert.deepEqual(readPromAnswer(200, vec('NaN', '+Inf', '-Inf')), { ok: true, value: null, series: 3 });
  assert.deepEqual(readPromAnswer(200, vec('NaN', '0.5')), { ok: true, value: 0.5, series: 2 });
  assert.deepEqual(readPromAnswer(200, JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [1, '2'] } })), {
    ok: true,
    value: 2,
    series: 1,
  });
  const bad = readPromAnswer(400, JSON.stringify({ status: 'error', errorType: 'bad_data', error: '1:4: parse error: unclosed left parenthesis\n' }));
  assert.equal(bad.ok, false);
  assert.match((bad as { error: string }).error, /^HTTP 400: bad_data: 1:4: parse error/);
  assert.match(
    (readPromAnswer(503, JSON.stringify({ status: 'error', errorType: 'timeout', error: 'query timed out' })) as { error: string }).error,
    /timeout/,
  );
  assert.match((readPromAnswer(200, '<html>proxy</html>') as { error: string }).error, /not JSON/);
  assert.match((readPromAnswer(502, '') as { error: string }).error, /HTTP 502: the answer is not JSON/);
  assert.match((readPromAnswer(200, 'null') as { error: string }).error, /unexpected/);
  assert.match((readPromAnswer(200, JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } })) as { error: string }).error, /matrix/);
  // Values that are not strings (a wrong server) are no reading either.
  assert.deepEqual(
    readPromAnswer(200, JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [{ value: [1, 5] }, { value: 'x' }, null] } })),
    { ok: true, value: null, series: 3 },
  );
});

test('a breach needs the value above the threshold for the whole duration; its end is told once; failures keep the run', () => {
  const q: TelemetryQuery = { vendor: 'stripe', query: 'x', threshold: 0.2, durationSeconds: 120 };
  const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s));
  let r = evaluate(null, q, { ok: true, value: 0.5, series: 1 }, at(0));
  assert.equal(r.verdict, 'none');
  assert.equal(r.state.aboveSince, at(0).toISOString());
  r = evaluate(r.state, q, { ok: false, error: 'timeout' }, at(60));
  assert.equal(r.verdict, 'none');
  assert.equal(r.state.aboveSince, at(0).toISOString(), 'a failed query neither breaks nor restarts the run');
  assert.equal(r.state.error, 'timeout');
  r = evaluate(r.state, q, { ok: true, value: 0.5, series: 1 }, at(119));
  assert.equal(r.verdict, 'none');
  r = evaluate(r.state, q, { ok: true, value: 0.21, series: 1 }, at(120));
  assert.equal(r.verdict, 'breach');
  assert.equal(r.state.breaching, true);
  r = evaluate(r.state, q, { ok: true, value: 0.2, series: 1 }, at(180));
  assert.equal(r.verdict, 'cleared', 'at the threshold is not above it');
  r = evaluate(r.state, q, { ok: true, value: 0.1, series: 1 }, at(240));
  assert.equal(r.verdict, 'none');
  // No reading (NaN) breaks a run.
  r = evaluate(null, q, { ok: true, value: 0.9, series: 1 }, at(0));
  r = evaluate(r.state, q, { ok: true, value: null, series: 1 }, at(60));
  assert.equal(r.state.aboveSince, null);
  // Duration 0: the first value above is a breach.
  assert.equal(evaluate(null, { ...q, durationSeconds: 0 }, { ok: true, value: 1, series: 1 }, at(0)).verdict, 'breach');
});

test('connector checks: URLs by the outbound rules, one-line queries, finite thresholds', () => {
  const q = (query: string, threshold = 0.2): TelemetryQuery => ({ vendor: 'stripe', query, threshold, durationSeconds: 60 });
  assert.deepEqual(connectorProblems({ baseUrl: 'https://prom.example.com/prometheus', queries: [q('up')] }, []), []);
  const fields = (c: Parameters<typeof connectorProblems>[0], allow: string[] = []) => connectorProblems(c, allow).map((p) => p.field);
  assert.deepEqual(fields({ baseUrl: 'http://10.0.0.5:9090' }), ['baseUrl']);
  assert.deepEqual(fields({ baseUrl: 'http://10.0.0.5:9090' }, ['10.0.0.5']), []);
  assert.deepEqual(fields({ baseUrl: 'https://169.254.169.254/' }), ['baseUrl']);
  assert.deepEqual(fields({ baseUrl: 'ftp://prom.example.com' }), ['baseUrl']);
  assert.deepEqual(fields({ baseUrl: 'https://u:p@prom.example.com' }), ['baseUrl']);
  assert.deepEqual(fields({ baseUrl: 'https://prom.example.com/?x=1' }), ['baseUrl']);
  assert.deepEqual(fields({ queries: [q('up\n')] }), ['queries[0].query']);
  assert.deepEqual(fields({ queries: [q('   ')] }), ['queries[0].query']);
  assert.deepEqual(fields({ queries: [q('up', Number.NaN), q('up', Number.POSITIVE_INFINITY)] }), ['queries[0].threshold', 'queries[1].threshold']);
});
