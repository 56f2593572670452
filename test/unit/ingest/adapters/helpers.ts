// Shared test plumbing. Recorded upstream payloads live outside the repository
// (`fixturesRoot` below) and are read at test time only.
import assert from 'node:assert/strict';
import {
  COMPONENT_STATUSES,
  IMPACTS,
  INCIDENT_STATUSES,
  INDICATORS,
  MAINTENANCE_STATUSES,
  SEVERITIES,
  type SourceSnapshot,
  type SourceType,
} from '../../../../src/domain/records.ts';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import type { AdapterInput } from '../../../../src/ingest/adapters/adapter.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const fixturesRoot = path.resolve(repoRoot, '../shared/fixtures/upstream');
export const fixturesPresent = existsSync(fixturesRoot);
export const SKIP_MESSAGE = '../shared/fixtures absent';

/** Reads a fixture, or marks the test skipped and returns null when the folder is absent. */
export function fixture(t: TestContext, relative: string): Buffer | null {
  if (!fixturesPresent) {
    t.skip(SKIP_MESSAGE);
    return null;
  }
  return readFileSync(path.join(fixturesRoot, relative));
}

export function input(vendor: string, url: string, body: Buffer | string, now = new Date('2026-08-01T00:00:00Z')): AdapterInput {
  return { vendor, url, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, now };
}

/** Every file below the fixtures folder, relative, except the provenance notes. */
export function listFixtureFiles(dir = fixturesRoot): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFixtureFiles(full));
    else out.push(path.relative(fixturesRoot, full).split(path.sep).join('/'));
  }
  return out.filter((f) => f !== 'SOURCES.md').sort();
}

export interface FixtureSource {
  type: SourceType;
  vendor: string;
  /** The URL the payload was served from (some formats are recognised by path). */
  url: string;
  /** Set when the adapter must refuse the payload (not a format we ingest). */
  rejects?: string;
}

const sp = (vendor: string, host: string, endpoint: string): FixtureSource => ({
  type: 'statuspage-v2',
  vendor,
  url: `https://${host}/api/v2/${endpoint}`,
});

/**
 * Which adapter reads which recorded payload. The coverage test fails when a fixture
 * file exists that is not listed here, so new recordings cannot go untested.
 */
export const FIXTURE_SOURCES: Record<string, FixtureSource> = {
  'aws/currentevents-2026-08-01.json': { type: 'aws-currentevents', vendor: 'aws', url: 'https://health.aws.amazon.com/public/currentevents' },
  'aws/data-2022-07-03.json': { type: 'aws-currentevents', vendor: 'aws', url: 'https://status.aws.amazon.com/data.json' },
  'aws/rss-all-2021-12-20.rss': { type: 'aws-rss', vendor: 'aws', url: 'https://status.aws.amazon.com/rss/all.rss' },
  'azure/feed-2026-07-23-eus.xml': { type: 'azure-rss', vendor: 'azure', url: 'https://azure.status.microsoft/en-us/status/feed/' },
  'azure/feed-2026-07-23-wus.xml': { type: 'azure-rss', vendor: 'azure', url: 'https://rssfeed.azure.status.microsoft/en-us/status/feed/' },
  'betterstack/huggingface/2026-07-19/index.json': { type: 'betterstack', vendor: 'huggingface', url: 'https://status.huggingface.co/index.json' },
  'checkly/mistral/2026-07-27/unresolved-incidents.json': {
    type: 'checkly',
    vendor: 'mistral',
    url: 'https://status.mistral.ai/api/status-page/mistral-ai/unresolved-incidents',
  },
  'gcp/incidents-2022-07-03.json': { type: 'gcp-json', vendor: 'gcp', url: 'https://status.cloud.google.com/incidents.json' },
  'incidentio/cohere/2026-07-23/api-v2-summary.json': { type: 'incidentio', vendor: 'cohere', url: 'https://status.cohere.com/api/v2/summary.json' },
  'incidentio/openai/2026-07-22/api-v2-summary.json': { type: 'incidentio', vendor: 'openai', url: 'https://status.openai.com/api/v2/summary.json' },
  'instatus/perplexity/2026-07-23/summary.json': { type: 'instatus', vendor: 'perplexity', url: 'https://status.perplexity.com/api/v2/summary.json' },
  'rss-atom/github/history-2022-06-11.atom': { type: 'statuspage-atom', vendor: 'github', url: 'https://www.githubstatus.com/history.atom' },
  'rss-atom/github/history-2026-08-22.atom': { type: 'statuspage-atom', vendor: 'github', url: 'https://www.githubstatus.com/history.atom' },
  'rss-atom/parse/history-2014-01-09.rss': { type: 'statuspage-rss', vendor: 'parse', url: 'http://status.parse.com/history.rss' },
  'statuspage-v2/anthropic/2026-07-29/summary.json': sp('anthropic', 'status.anthropic.com', 'summary.json'),
  'statuspage-v2/atlassian-bitbucket/2026-07-31/summary.json': sp('bitbucket', 'bitbucket.status.atlassian.com', 'summary.json'),
  'statuspage-v2/cloudflare/2019-01-10/incidents.json': sp('cloudflare', 'www.cloudflarestatus.com', 'incidents.json'),
  'statuspage-v2/cloudflare/2026-07-29/summary.json': sp('cloudflare', 'www.cloudflarestatus.com', 'summary.json'),
  'statuspage-v2/discord/2022-02-19/components.json': sp('discord', 'discordstatus.com', 'components.json'),
  'statuspage-v2/discord/2022-02-19/incidents.json': sp('discord', 'discordstatus.com', 'incidents.json'),
  'statuspage-v2/discord/2022-02-19/incidents/unresolved.json': sp('discord', 'discordstatus.com', 'incidents/unresolved.json'),
  'statuspage-v2/discord/2022-02-19/metrics-display/5k2rt9f7pmny/day.json': {
    ...sp('discord', 'discordstatus.com', 'metrics-display/5k2rt9f7pmny/day.json'),
    rejects: 'not a Statuspage v2 payload',
  },
  'statuspage-v2/discord/2022-02-19/metrics-display/5k2rt9f7pmny/month.json': {
    ...sp('discord', 'discordstatus.com', 'metrics-display/5k2rt9f7pmny/month.json'),
    rejects: 'not a Statuspage v2 payload',
  },
  'statuspage-v2/discord/2022-02-19/metrics-display/5k2rt9f7pmny/week.json': {
    ...sp('discord', 'discordstatus.com', 'metrics-display/5k2rt9f7pmny/week.json'),
    rejects: 'not a Statuspage v2 payload',
  },
  'statuspage-v2/discord/2022-02-19/scheduled-maintenances.json': sp('discord', 'discordstatus.com', 'scheduled-maintenances.json'),
  'statuspage-v2/discord/2022-02-19/scheduled-maintenances/active.json': sp('discord', 'discordstatus.com', 'scheduled-maintenances/active.json'),
  'statuspage-v2/discord/2022-02-19/scheduled-maintenances/upcoming.json': sp('discord', 'discordstatus.com', 'scheduled-maintenances/upcoming.json'),
  'statuspage-v2/discord/2022-02-19/status.json': sp('discord', 'discordstatus.com', 'status.json'),
  'statuspage-v2/discord/2022-02-19/summary.json': sp('discord', 'discordstatus.com', 'summary.json'),
  'statuspage-v2/emma/2019-02-21/incidents.json': sp('emma', 'status.myemma.com', 'incidents.json'),
  'statuspage-v2/github/2020-05-22/status.json': sp('github', 'www.githubstatus.com', 'status.json'),
  'statuspage-v2/github/2020-05-22/summary.json': sp('github', 'www.githubstatus.com', 'summary.json'),
  'statuspage-v2/github/2020-12-17/status.json': sp('github', 'www.githubstatus.com', 'status.json'),
  'statuspage-v2/github/2020-12-17/summary.json': sp('github', 'www.githubstatus.com', 'summary.json'),
  'statuspage-v2/github/2022-11-25/summary.json': sp('github', 'www.githubstatus.com', 'summary.json'),
  'statuspage-v2/github/2024-09-17/components.json': sp('github', 'www.githubstatus.com', 'components.json'),
  'statuspage-v2/github/2024-09-17/incidents.json': sp('github', 'www.githubstatus.com', 'incidents.json'),
  'statuspage-v2/github/2026-07-24/summary.json': sp('github', 'www.githubstatus.com', 'summary.json'),
  'statuspage-v2/github/incidents/b40k7ckrs7sp.json': sp('github', 'www.githubstatus.com', 'incidents/b40k7ckrs7sp.json'),
  'statuspage-v2/github/incidents/f0mhbz9xn497.json': sp('github', 'www.githubstatus.com', 'incidents/f0mhbz9xn497.json'),
  'statuspage-v2/github/incidents/gqx5l06jjxhp.json': sp('github', 'www.githubstatus.com', 'incidents/gqx5l06jjxhp.json'),
};

/** Counts of a string property across records, e.g. countBy(incidents, 'status'). */
export function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/** Parses a listed fixture with its adapter; null (test skipped) when fixtures are absent. */
export function parseFixture(t: TestContext, relative: string, now?: Date): SourceSnapshot | null {
  const source = FIXTURE_SOURCES[relative];
  assert.ok(source, `fixture ${relative} is not listed in FIXTURE_SOURCES`);
  const body = fixture(t, relative);
  if (!body) return null;
  return parseSource(source.type, input(source.vendor, source.url, body, now));
}

const isIso = (v: unknown) => typeof v === 'string' && new Date(v).toISOString() === v;
const isIsoOrNull = (v: unknown) => v === null || isIso(v);

function assertNewestFirst(updates: { createdAt: string }[], where: string) {
  for (let i = 1; i < updates.length; i++) {
    assert.ok(updates[i - 1]!.createdAt >= updates[i]!.createdAt, `${where}: updates not newest first at ${i}`);
  }
}

/** Contract every snapshot honours, whatever the format. */
export function assertSnapshotInvariants(s: SourceSnapshot, vendor: string, source: string): void {
  if (s.status) assert.ok((INDICATORS as readonly string[]).includes(s.status.indicator), `indicator ${s.status.indicator}`);
  for (const c of s.components ?? []) {
    assert.ok((COMPONENT_STATUSES as readonly string[]).includes(c.status), `component status ${c.status}`);
    assert.equal(typeof c.name, 'string');
  }
  if (s.components)
    assert.deepEqual(
      s.components.map((c) => c.position),
      s.components.map((_, i) => i),
      'positions are display order',
    );
  for (const i of s.incidents ?? []) {
    const where = `incident ${i.id}`;
    assert.ok(i.id.startsWith(`${vendor}:`) && i.id.length > vendor.length + 1, `${where}: id prefix`);
    assert.equal(i.vendor, vendor);
    assert.equal(i.source, source, `${where}: source`);
    assert.ok((INCIDENT_STATUSES as readonly string[]).includes(i.status), `${where}: status ${i.status}`);
    assert.ok((IMPACTS as readonly string[]).includes(i.impact), `${where}: impact ${i.impact}`);
    assert.ok(isIso(i.startedAt) && isIso(i.updatedAt) && isIsoOrNull(i.resolvedAt), `${where}: timestamps`);
    assert.equal(i.resolvedAt !== null, i.status === 'resolved', `${where}: resolvedAt iff resolved`);
    assert.ok(i.updatedAt >= i.startedAt, `${where}: updatedAt before startedAt`);
    for (const u of i.updates) {
      assert.ok(isIso(u.createdAt), `${where}: update createdAt`);
      assert.ok((INCIDENT_STATUSES as readonly string[]).includes(u.status), `${where}: update status ${u.status}`);
      assert.ok(
        !/<\/?(p|div|br|span|a|strong|small|var|ul|li|b|i|em|code)\b[^>]*>/i.test(u.body) && !/\s{2}/.test(u.body) && u.body === u.body.trim(),
        `${where}: update body is plain collapsed text`,
      );
    }
    assertNewestFirst(i.updates, where);
  }
  for (const m of s.maintenances ?? []) {
    const where = `maintenance ${m.id}`;
    assert.ok(m.id.startsWith(`${vendor}:`), `${where}: id prefix`);
    assert.equal(m.source, source, `${where}: source`);
    assert.ok((MAINTENANCE_STATUSES as readonly string[]).includes(m.status), `${where}: status ${m.status}`);
    assert.ok((IMPACTS as readonly string[]).includes(m.impact), `${where}: impact ${m.impact}`);
    assert.ok(isIso(m.scheduledFor) && isIsoOrNull(m.scheduledUntil) && isIsoOrNull(m.startedAt) && isIsoOrNull(m.completedAt), `${where}: timestamps`);
    assert.equal(m.completedAt !== null, m.status === 'completed', `${where}: completedAt iff completed`);
    assert.equal(m.startedAt === null, m.status === 'scheduled', `${where}: startedAt iff begun`);
    for (const u of m.updates) assert.ok((MAINTENANCE_STATUSES as readonly string[]).includes(u.status), `${where}: update status ${u.status}`);
    assertNewestFirst(m.updates, where);
  }
  for (const a of s.advisories ?? []) {
    assert.ok(a.id.startsWith(`${vendor}:`));
    assert.ok((SEVERITIES as readonly string[]).includes(a.severity));
    assert.ok(isIso(a.publishedAt) && isIso(a.updatedAt));
    for (const cve of a.cves) assert.match(cve, /^CVE-\d{4}-\d{4,}$/);
  }
  for (const u of s.updates ?? []) {
    assert.ok(u.id.startsWith(`${vendor}:`));
    assert.ok(isIso(u.publishedAt));
  }
}
