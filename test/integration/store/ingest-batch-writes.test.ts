import { INTERNAL_AUDIENCE, PUBLIC_AUDIENCE } from '../../../src/domain/audience.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CatalogVendor, IncidentRecord } from '../../../src/domain/records.ts';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { publicationsRepository } from '../../../src/store/repositories/publications-repository.ts';
import { vendorsRepository } from '../../../src/store/repositories/vendors-repository.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { catalogVendor } from '../../helpers/records.ts';

// What one poll writes in few statements (docs/ingestion.md, "Profile of a round"): a
// multi-row upsert leaves the rows a row-by-row upsert left, on both dialects; the
// per-vendor lock returns the vendor's name; a page's vendor names are read by slug.

const vendor = (slug: string, name: string): CatalogVendor => catalogVendor(slug, [], name);

const incident = (id: string, title: string, status: IncidentRecord['status'] = 'investigating'): IncidentRecord => ({
  id,
  vendor: 'zb-one',
  title,
  status,
  sourceStatus: status,
  impact: 'minor',
  startedAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:10:00.000Z',
  resolvedAt: status === 'resolved' ? '2031-01-01T01:00:00.000Z' : null,
  components: ['API'],
  updates: [],
  url: null,
  source: 'statuspage-v2',
});

describe('batched ingestion writes', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    await vendorsRepository(t.store.db).upsertCatalog(
      [vendor('zb-one', 'One'), vendor('zb-two', 'Two'), vendor('zb-three', 'Three')],
      new Date('2031-01-01T00:00:00Z'),
    );
  });
  after(async () => {
    await t.close();
  });

  test('a multi-row upsert inserts new rows and replaces stored ones, every column', async () => {
    const repo = incidentsRepository(t.store.db);
    await repo.upsertMany([
      { record: incident('zb-one:1', 'First'), fingerprint: 'f1' },
      { record: incident('zb-one:2', 'Second'), fingerprint: 'f2' },
    ]);
    await repo.upsertMany([
      { record: incident('zb-one:2', 'Second, resolved', 'resolved'), fingerprint: 'f2b' },
      { record: incident('zb-one:3', 'Third'), fingerprint: 'f3' },
    ]);
    const stored = await repo.getMany(['zb-one:1', 'zb-one:2', 'zb-one:3']);
    assert.deepEqual(
      [...stored.entries()].sort().map(([id, s]) => [id, s.record.title, s.record.status, s.record.resolvedAt, s.fingerprint]),
      [
        ['zb-one:1', 'First', 'investigating', null, 'f1'],
        ['zb-one:2', 'Second, resolved', 'resolved', '2031-01-01T01:00:00.000Z', 'f2b'],
        ['zb-one:3', 'Third', 'investigating', null, 'f3'],
      ],
    );
    assert.deepEqual(stored.get('zb-one:2')?.record, incident('zb-one:2', 'Second, resolved', 'resolved'));
  });

  test('more rows than one statement holds', async () => {
    const repo = publicationsRepository(t.store.db);
    const items = Array.from({ length: 450 }, (_, i) => ({
      record: {
        id: `zb-one:u${i}`,
        vendor: 'zb-one',
        title: `Release ${i}`,
        publishedAt: '2031-01-02T00:00:00.000Z',
        summary: 's',
        categories: [],
        url: null,
        source: 'release-feed',
      },
      fingerprint: `u${i}`,
    }));
    await repo.upsertUpdates(items);
    const fps = await repo.updateFingerprints(items.map((i) => i.record.id));
    assert.equal(fps.size, 450);
    assert.equal(fps.get('zb-one:u449'), 'u449');
  });

  test('the per-vendor lock returns the name; null for an unknown vendor', async () => {
    const repo = vendorsRepository(t.store.db);
    assert.deepEqual(await repo.lockForIngestNamed('zb-two'), { name: 'Two' });
    assert.equal(await repo.lockForIngestNamed('zb-none'), null);
  });

  test('names of the given slugs only; none for an empty list', async () => {
    const repo = vendorsRepository(t.store.db);
    const some = await repo.names(PUBLIC_AUDIENCE, ['zb-one', 'zb-three', 'zb-one', 'zb-none']);
    assert.deepEqual([...some.entries()].sort(), [
      ['zb-one', 'One'],
      ['zb-three', 'Three'],
    ]);
    assert.equal((await repo.names(INTERNAL_AUDIENCE, [])).size, 0);
    assert.ok((await repo.names(PUBLIC_AUDIENCE)).size >= 3, 'without slugs: every vendor');
  });
});
