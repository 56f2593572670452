import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerNameProblem, headerValueProblem, lastFour, privateProbeProblems, privateProbeState, vendorSamples } from '../../../src/domain/private-probes.ts';
import { anomalyOf, type ProbeSample } from '../../../src/domain/probes.ts';

// Private probes' rules (docs/early-warning.md "Private probes"): which headers may carry a
// credential, what a value and a target may be, and the credential-rejected state.

const hostnames = ['github.com', 'githubusercontent.com'];
const sample = (ok: boolean, reason: string | null = ok ? null : 'status 503'): ProbeSample => ({
  at: '2026-11-29T12:00:00Z',
  ok,
  latencyMs: ok ? 50 : null,
  reason,
});

test('credential header names: an allow-list; Host, Cookie, hop-by-hop and forwarding headers refused', () => {
  for (const ok of ['Authorization', 'authorization', 'X-Api-Key', 'api-key', 'apikey', 'private-token', 'x-auth-token', 'X-DD-API-KEY'])
    assert.equal(headerNameProblem(ok), null, ok);
  for (const bad of [
    'host',
    'Host',
    'cookie',
    'connection',
    'keep-alive',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
    'proxy-authorization',
    'proxy-connection',
    'content-length',
    'content-type',
    'expect',
    'x-forwarded-for',
    'X-Forwarded-Host',
    'x-real-ip',
    'user-agent',
    'sec-fetch-site',
    '',
    'x api',
    'x-api\r\nhost',
    `x-${'a'.repeat(63)}`,
  ]) {
    assert.notEqual(headerNameProblem(bad), null, JSON.stringify(bad));
  }
});

test('credential values: printable ASCII, no CR, LF, NUL or other controls, bounded', () => {
  assert.equal(headerValueProblem('Bearer abc.def-ghi_jkl'), null);
  for (const bad of ['a\r\nHost: x', 'a\nb', 'a\rb', 'a\u0000b', 'a\tb', '\u007f', ' lead', 'trail ', 'naïve', '', 'k'.repeat(4097)])
    assert.notEqual(headerValueProblem(bad), null, JSON.stringify(bad));
  assert.equal(lastFour('Bearer 0123456789abcd'), 'abcd');
  assert.equal(lastFour('short-key'), '', 'a short value shows nothing of itself');
});

test("targets: outbound URL rules, the vendor's hostnames unless allow-listed, kinds and intervals", () => {
  const o = { allowList: ['localhost'], hostnames };
  const fields = (p: Parameters<typeof privateProbeProblems>[0]) => privateProbeProblems(p, o).map((x) => x.field);
  assert.deepEqual(fields({ vendor: 'github', kind: 'http', target: 'https://api.github.com/user', intervalSeconds: 30 }), []);
  assert.deepEqual(fields({ vendor: 'github', kind: 'http', target: 'http://localhost:8080/user' }), [], 'an allow-listed host passes without the hostnames');
  assert.deepEqual(fields({ vendor: 'github', kind: 'tls', target: 'api.github.com:443' }), []);
  for (const target of [
    'https://api.example.com/',
    'https://10.0.0.1/',
    'https://127.0.0.1/',
    'http://api.github.com/',
    'https://u:p@api.github.com/',
    'https://api.github.com/#x',
    'ftp://api.github.com/',
    'not a url',
    `https://api.github.com/${'a'.repeat(2100)}`,
  ]) {
    assert.deepEqual(fields({ vendor: 'github', kind: 'http', target }), ['target'], target);
  }
  for (const target of ['10.0.0.1:443', 'api.github.com', 'api.github.com:0', 'api.github.com:70000', 'api.example.com:443'])
    assert.deepEqual(fields({ vendor: 'github', kind: 'tcp', target }), ['target'], target);
  // No hostnames in the catalog: any public name passes, a private one still does not.
  assert.deepEqual(privateProbeProblems({ kind: 'http', target: 'https://api.example.com/' }, { allowList: [], hostnames: [] }), []);
  assert.deepEqual(
    privateProbeProblems({ kind: 'http', target: 'https://metadata/' }, { allowList: [], hostnames: [] }).map((x) => x.field),
    ['target'],
  );
  assert.deepEqual(fields({ kind: 'tcp', target: 'api.github.com:443', expect: [200] }), ['expect']);
  assert.deepEqual(fields({ kind: 'tls', target: 'api.github.com:443', credential: { name: 'authorization', value: 'x' } }), ['credential']);
  assert.deepEqual(fields({ kind: 'http', target: 'https://api.github.com/', expect: [99] }), ['expect']);
  for (const i of [29, 301, 45.5]) assert.deepEqual(fields({ intervalSeconds: i }), ['intervalSeconds'], String(i));
  assert.deepEqual(fields({ kind: 'http', credential: { name: 'cookie', value: 'a\r\nb' } }), ['credential.name', 'credential.value']);
});

test('a refused credential is its own state and is left out of the vendor anomaly', () => {
  assert.equal(privateProbeState([], false), 'unknown');
  assert.equal(privateProbeState([sample(true)], false), 'ok');
  assert.equal(privateProbeState([sample(true), sample(false, 'status 401')], false), 'credential_rejected');
  assert.equal(privateProbeState([sample(false, 'status 403')], true), 'credential_rejected');
  assert.equal(privateProbeState([sample(false, 'status 401'), sample(false)], true), 'anomalous');
  const rejected = Array.from({ length: 5 }, () => sample(false, 'status 401'));
  assert.equal(anomalyOf(rejected).anomalous, true, 'the plain rule would call five refusals an outage');
  assert.equal(anomalyOf(vendorSamples(rejected)).anomalous, false, 'left out, they say nothing about the vendor');
  assert.equal(
    anomalyOf(vendorSamples([sample(false), sample(false, 'status 401'), sample(false), sample(false)])).anomalous,
    true,
    'real failures around them still count',
  );
});
