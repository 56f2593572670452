import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { affectedServices, type ImpactRecord, type ImpactService, impactIndex, recordComponents } from '../src/domain/impact.ts';
import type { CatalogVendor, ComponentRecord, IncidentRecord } from '../src/domain/records.ts';
import { REGIONS } from '../src/domain/regions.ts';
import type { Dependency } from '../src/domain/team-services.ts';
import { loadConfig } from '../src/infra/config.ts';
import { recordAnnotator } from '../src/services/impact/record-annotations.ts';
import { createRepositories } from '../src/services/index.ts';
import { openStore } from '../src/store/db.ts';
import { pct, reportFigures } from './lib/report.ts';

// The impact of one incident change on an organisation's services (docs/services.md "Impact
// rules"): 1,000 services, each depending on a few of 2,000 sources' vendors (some limited
// to components, some to regions), against incidents with components and updates naming
// regions. Prints, per incident change:
//   - rules only: the rules over an index built once (what a dispatcher holding the index pays);
//   - rules + index: the index built anew for each change, and the record's components read;
//   - with the store: what a record answer pays (`affectedServices`): the organisation's
//     services and dependencies read (two queries), the vendor's components read, the rules.
// Target: <= 50 ms per change.
//
//   npm run bench -- impact [changes=500]
//   DATABASE_URL=postgres://... npm run bench -- impact

const changes = Number(process.argv[2] ?? 500);
const SOURCES = 2000;
const SERVICES = 1000;
const COMPONENTS_PER_VENDOR = 30;

let seed = 42;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const vendors = Array.from({ length: SOURCES }, (_, i) => `bench-vendor-${i}`);
// A few vendors are popular (clouds, GitHub): a third of the dependencies go to ten of them.
const popular = vendors.slice(0, 10);
const components = new Map<string, ComponentRecord[]>(
  vendors.map((v) => [
    v,
    Array.from({ length: COMPONENTS_PER_VENDOR }, (_, j) => ({
      id: `${v}-c${j}`,
      name: `Component ${j} of ${v}`,
      status: 'operational' as const,
      group: null,
      position: j,
    })),
  ]),
);
const names = new Map([...components].map(([v, list]) => [v, new Map(list.map((c) => [c.id, c.name]))]));
const awsRegions = REGIONS.filter((r) => r.cloud === 'aws').map((r) => r.code);

const services: ImpactService[] = Array.from({ length: SERVICES }, (_, i) => {
  const deps = new Map<string, Dependency>();
  const n = 3 + Math.floor(rnd() * 6);
  while (deps.size < n) {
    const vendor = rnd() < 0.33 ? pick(popular) : pick(vendors);
    const shape = rnd();
    deps.set(vendor, {
      vendor,
      kind: rnd() < 0.3 ? 'soft' : 'hard',
      components: shape < 0.4 ? Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => `${vendor}-c${Math.floor(rnd() * COMPONENTS_PER_VENDOR)}`) : [],
      regions: shape > 0.7 ? [pick(awsRegions), pick(awsRegions)] : [],
    });
  }
  return { id: `svc_${i}`, name: `service-${i}`, criticality: pick(['critical', 'high', 'medium', 'low'] as const), dependencies: [...deps.values()] };
});

function incidentFor(i: number): IncidentRecord {
  const vendor = i % 3 === 0 ? pick(popular) : pick(vendors);
  const at = new Date(Date.UTC(2026, 10, 29, 12, 0) + i * 60_000).toISOString();
  const listed = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => `Component ${Math.floor(rnd() * COMPONENTS_PER_VENDOR)} of ${vendor}`);
  return {
    id: `${vendor}:inc${i}`,
    vendor,
    title: `Elevated error rates for ${listed[0]}`,
    status: 'investigating',
    sourceStatus: 'identified',
    impact: 'major',
    startedAt: at,
    updatedAt: at,
    resolvedAt: null,
    components: listed,
    updates: Array.from({ length: 4 }, (_, k) => ({
      status: 'investigating',
      body: `Update ${k}: we are investigating increased error rates and latencies in the ${pick(awsRegions)} Region for ${listed[0]}. Customers may see timeouts.`,
      createdAt: new Date(Date.parse(at) + k * 600_000).toISOString(),
    })),
    url: null,
    source: 'statuspage-v2',
  };
}
const asRecord = (i: IncidentRecord): ImpactRecord => ({
  kind: 'incident',
  id: i.id,
  vendor: i.vendor,
  title: i.title,
  components: recordComponents(i.components, names.get(i.vendor)),
  updates: i.updates,
});

const incidents = Array.from({ length: changes }, (_, i) => incidentFor(i));
const figures: Record<string, number> = {};
const ms = (samples: number[], label: string, key: string) => {
  const p50 = pct(samples, 0.5);
  const p95 = pct(samples, 0.95);
  const max = Math.max(...samples);
  figures[`${key}P50Ms`] = Number(p50.toFixed(3));
  figures[`${key}P95Ms`] = Number(p95.toFixed(3));
  figures[`${key}MaxMs`] = Number(max.toFixed(3));
  console.log(`  ${label.padEnd(52)} p50 ${p50.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms  max ${max.toFixed(3)} ms`);
};

console.log(`${SERVICES.toLocaleString('en')} services over ${SOURCES.toLocaleString('en')} sources, ${changes} incident changes:`);
let affected = 0;
{
  const index = impactIndex(services);
  for (let i = 0; i < 50; i++) affectedServices(asRecord(incidents[i % incidents.length]!), index); // warm-up
  const samples: number[] = [];
  for (const inc of incidents) {
    const t0 = performance.now();
    affected += affectedServices(asRecord(inc), index).length;
    samples.push(performance.now() - t0);
  }
  ms(samples, 'rules only (index built once)', 'rules');
}
{
  const samples: number[] = [];
  for (const inc of incidents) {
    const t0 = performance.now();
    affectedServices(asRecord(inc), impactIndex(services));
    samples.push(performance.now() - t0);
  }
  ms(samples, 'rules + index built per change', 'rulesIndex');
}
figures.affectedPerChange = Number((affected / changes).toFixed(1));
console.log(`  services affected per change: ${figures.affectedPerChange} on average`);

// ------------------------------------------------------------ with the store
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-impact-'));
const schema = process.env.DATABASE_URL ? `bench_impact_${process.pid}` : undefined;
const config = loadConfig({ ...process.env, DATA_DIR: tmp, ...(schema ? { DATABASE_SCHEMA: schema } : {}), LOG_LEVEL: 'warn', INGEST: 'off', DELIVER: 'off' });
const store = openStore(config);
try {
  await store.migrate();
  const repos = createRepositories(store);
  const now = new Date();
  const userId = randomUUID();
  await repos.users.create({ id: userId, email: `bench-impact-${process.pid}@example.com`, passwordHash: 'scrypt$1$1$1$x$y', plan: 'pro', now });
  const setup = performance.now();
  // 2,000 vendors of one status-page source each.
  const catalog: CatalogVendor[] = vendors.map((slug) => ({
    slug,
    name: slug,
    website: `https://${slug}.example`,
    category: 'cloud',
    description: slug,
    statusPageUrl: `https://status.${slug}.example`,
    availableDataTypes: ['incidents'],
    compliance: { sourceUrl: null, items: [] },
    sources: [{ type: 'statuspage-v2', url: `https://status.${slug}.example/api/v2/summary.json` }],
  }));
  await repos.vendors.upsertCatalog(catalog, now);
  for (const v of vendors) await repos.status.replaceComponents(v, components.get(v)!, now.toISOString());
  for (const s of services) await repos.services.create({ ...s, orgId: userId, ownerRouteId: null, tags: [], now }, 5000);
  console.log(`store (${store.dialect}) set up in ${((performance.now() - setup) / 1000).toFixed(1)} s`);
  const annotate = recordAnnotator({ services: repos.services, status: repos.status });
  const viewer = { plan: 'pro' as const, userId, orgId: userId, role: 'owner' as const, authKind: 'session' as const, keyId: null };
  for (let i = 0; i < 20; i++) await annotate(viewer, [{ kind: 'incident', record: incidents[i]! }]); // warm-up
  const samples: number[] = [];
  const rounds = Math.min(changes, 200);
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await annotate(viewer, [{ kind: 'incident', record: incidents[i]! }]);
    samples.push(performance.now() - t0);
  }
  ms(samples, `with the store (${store.dialect}): read services + rules`, 'store');
  const target = 50;
  const worst = figures.storeP95Ms!;
  console.log(`  target <= ${target} ms per change: ${worst <= target ? 'met' : 'NOT met'} (p95 with the store ${worst.toFixed(1)} ms)`);
} finally {
  if (schema) {
    const { sql } = await import('kysely');
    await sql.raw(`drop schema if exists "${schema}" cascade`).execute(store.db);
  }
  await store.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
reportFigures('impact', figures, { services: SERVICES, sources: SOURCES, changes });
