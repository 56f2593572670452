import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { affectedServices, type ImpactRecord, type ImpactService, impactIndex, recordComponents } from '../../../src/domain/impact.ts';
import type { Dependency } from '../../../src/domain/team-services.ts';

// The impact rules (docs/services.md "Impact rules"): which services a vendor record may
// hit, with a confidence and the reasons.

const GITHUB = new Map([
  ['cmp-actions', 'Actions'],
  ['cmp-pages', 'Pages'],
  ['cmp-git', 'Git Operations'],
]);

const dep = (vendor: string, o: Partial<Dependency> = {}): Dependency => ({ vendor, kind: 'hard', components: [], regions: [], ...o });
const svc = (name: string, deps: Dependency[], criticality: ImpactService['criticality'] = 'medium'): ImpactService => ({
  id: `svc_${name}`,
  name,
  criticality,
  dependencies: deps,
});

function record(o: Partial<ImpactRecord> & { componentNames?: string[] } = {}): ImpactRecord {
  const { componentNames = [], ...rest } = o;
  return {
    kind: 'incident',
    id: 'github:1',
    vendor: 'github',
    title: 'Degraded performance',
    components: recordComponents(componentNames, GITHUB),
    updates: [],
    ...rest,
  };
}

const judge = (r: ImpactRecord, services: ImpactService[]) => affectedServices(r, impactIndex(services));

describe('impact rules', () => {
  test('a listed component of the dependency: high, naming the component', () => {
    const out = judge(record({ componentNames: ['actions', 'Pages'] }), [svc('ci', [dep('github', { components: ['cmp-actions'] })])]);
    assert.equal(out.length, 1);
    assert.equal(out[0]!.confidence, 'high');
    assert.deepEqual(out[0]!.reasons, ["component 'actions' listed"]);
  });

  test('a dependency region named in an update: medium, naming the update time', () => {
    const r = record({
      vendor: 'amazon-web-services',
      title: 'Increased error rates',
      updates: [
        { createdAt: '2026-10-20T14:40:00Z', body: 'Recovery continues in us-east-1 and eu-west-1.' },
        { createdAt: '2026-10-20T14:02:00Z', body: 'We are investigating increased error rates in the US-EAST-1 Region.' },
      ],
    });
    const out = judge(r, [
      svc('api', [dep('amazon-web-services', { regions: ['us-east-1'] })]),
      svc('eu', [dep('amazon-web-services', { regions: ['eu-central-1'] })]),
    ]);
    assert.deepEqual(
      out.map((x) => [x.serviceName, x.confidence]),
      [['api', 'medium']],
    );
    assert.deepEqual(out[0]!.reasons, ['us-east-1 named in the 14:02 update']);
  });

  test('a region in the title says so', () => {
    const r = record({ vendor: 'google-cloud', title: 'Cloud SQL unavailable in us-central1' });
    assert.deepEqual(judge(r, [svc('db', [dep('google-cloud', { regions: ['us-central1'] })])])[0]!.reasons, ['us-central1 named in the title']);
  });

  test('a whole-vendor dependency: low', () => {
    const out = judge(record({ componentNames: ['Pages'] }), [svc('docs', [dep('github')])]);
    assert.equal(out[0]!.confidence, 'low');
    assert.deepEqual(out[0]!.reasons, ['the dependency on github names no components or regions']);
  });

  test('soft dependencies lower the confidence one step', () => {
    const out = judge(record({ componentNames: ['Actions'] }), [
      svc('hard-ci', [dep('github', { components: ['cmp-actions'] })]),
      svc('soft-ci', [dep('github', { kind: 'soft', components: ['cmp-actions'] })]),
      svc('soft-all', [dep('github', { kind: 'soft' })]),
    ]);
    assert.deepEqual(
      out.map((x) => [x.serviceName, x.confidence]),
      [
        ['hard-ci', 'high'],
        ['soft-ci', 'medium'],
        ['soft-all', 'low'],
      ],
    );
    assert.ok(out[1]!.reasons.includes('soft dependency'));
  });

  test('components listed, none ours, no region of ours named: not affected', () => {
    const services = [
      svc('ci', [dep('github', { components: ['cmp-actions'] })]),
      svc('ci-east', [dep('github', { components: ['cmp-actions'], regions: ['us-east-1'] })]),
    ];
    assert.deepEqual(judge(record({ componentNames: ['Pages'] }), services), []);
    // The same record naming one of the dependency's regions brings that one back, at medium.
    const named = judge(
      record({ componentNames: ['Pages'], updates: [{ createdAt: '2026-10-20T09:00:00Z', body: 'Runners in us-east-1 are slow' }] }),
      services,
    );
    assert.deepEqual(
      named.map((x) => [x.serviceName, x.confidence]),
      [['ci-east', 'medium']],
    );
  });

  test('regions named, none ours: not affected; none named at all: low, saying so', () => {
    const services = [svc('eu', [dep('amazon-web-services', { regions: ['eu-west-1'] })])];
    assert.deepEqual(judge(record({ vendor: 'amazon-web-services', title: 'Issue in us-west-2' }), services), []);
    const out = judge(record({ vendor: 'amazon-web-services', title: 'Issue with IAM' }), services);
    assert.equal(out[0]!.confidence, 'low');
    assert.deepEqual(out[0]!.reasons, ['the incident names no region']);
  });

  test('a record listing no components cannot rule a component out: low', () => {
    const out = judge(record({ kind: 'maintenance' }), [svc('ci', [dep('github', { components: ['cmp-actions'] })])]);
    assert.equal(out[0]!.confidence, 'low');
    assert.deepEqual(out[0]!.reasons, ['the maintenance lists no components']);
  });

  test('component names the vendor list does not know rule nothing out: low, saying so', () => {
    const out = judge(record({ componentNames: ['Something else entirely'] }), [svc('ci', [dep('github', { components: ['cmp-actions'] })])]);
    assert.equal(out[0]!.confidence, 'low');
    assert.deepEqual(out[0]!.reasons, ["the incident lists no component of github's component list"]);
  });

  test('other vendors are never affected; order is confidence, then criticality, then name', () => {
    const services = [
      svc('b-low', [dep('github')], 'low'),
      svc('a-critical', [dep('github')], 'critical'),
      svc('z-high', [dep('github', { components: ['cmp-pages'] })], 'low'),
      svc('other', [dep('stripe')], 'critical'),
    ];
    assert.deepEqual(
      judge(record({ componentNames: ['Pages'] }), services).map((x) => x.serviceName),
      ['z-high', 'a-critical', 'b-low'],
    );
  });

  test('a component renamed since the dependency was made is matched by its id', () => {
    const renamed = new Map([['cmp-actions', 'GitHub Actions']]);
    const r = { ...record(), components: recordComponents(['GitHub Actions'], renamed) };
    assert.equal(judge(r, [svc('ci', [dep('github', { components: ['cmp-actions'] })])])[0]!.confidence, 'high');
  });

  test('attack inputs: odd names, shared names, bad times, huge texts', () => {
    // A name two components share points at neither; a name is never read as a pattern.
    const shared = new Map([
      ['a', 'API'],
      ['b', 'api'],
    ]);
    assert.deepEqual(recordComponents(['API', '.*', '__proto__', 'constructor'], shared), [
      { id: null, name: 'API' },
      { id: null, name: '.*' },
      { id: null, name: '__proto__' },
      { id: null, name: 'constructor' },
    ]);
    const r = record({
      vendor: 'amazon-web-services',
      title: '\u0000'.repeat(1000),
      updates: [
        { createdAt: 'not a time', body: `${'x'.repeat(100_000)} us-east-1` },
        { createdAt: '', body: '' },
      ],
    });
    const started = performance.now();
    const out = judge(r, [svc('api', [dep('amazon-web-services', { regions: ['us-east-1'] })])]);
    assert.deepEqual(out[0]!.reasons, ['us-east-1 named in an update']);
    assert.ok(performance.now() - started < 1000);
    assert.deepEqual(affectedServices(r, impactIndex([])), []);
  });
});
