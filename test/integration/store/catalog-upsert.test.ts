import { PUBLIC_AUDIENCE } from '../../../src/domain/audience.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { sourceId, vendorsRepository } from '../../../src/store/repositories/vendors-repository.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { catalogVendor } from '../../helpers/records.ts';

// The catalog load in a few multi-row statements (docs/testing.md, "Store template"): the
// same end state as one statement per row, on both dialects and past one statement's
// parameter budget.

const vendor = (slug: string, urls: string[], name = slug): CatalogVendor => catalogVendor(slug, urls, name);

describe('catalog upsert', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => {
    await t.close();
  });

  const sourcesOf = (slug: string) =>
    t.store.db.selectFrom('sources').select(['id', 'url', 'consecutive_failures']).where('vendor', '=', slug).orderBy('url').execute();

  test('updates vendors, keeps the polling state of kept sources, removes unlisted ones', async () => {
    const repo = vendorsRepository(t.store.db);
    await repo.upsertCatalog(
      [vendor('zz-one', ['https://a.example/1', 'https://a.example/2']), vendor('zz-two', ['https://b.example/1'])],
      new Date('2031-01-01T00:00:00Z'),
    );
    await t.store.db.updateTable('sources').set({ consecutive_failures: 3 }).where('vendor', '=', 'zz-one').execute();

    await repo.upsertCatalog(
      [vendor('zz-two', []), vendor('zz-one', ['https://a.example/2', 'https://a.example/3'], 'One renamed')],
      new Date('2031-01-02T00:00:00Z'),
    );
    const one = (await repo.list(PUBLIC_AUDIENCE)).find((v) => v.slug === 'zz-one');
    assert.equal(one?.name, 'One renamed');
    assert.equal(one?.updatedAt, '2031-01-02T00:00:00.000Z');
    const listed = (await repo.list(PUBLIC_AUDIENCE)).map((v) => v.slug).filter((s) => s.startsWith('zz-'));
    assert.deepEqual(listed, ['zz-two', 'zz-one'], 'position follows the latest catalog order');
    assert.deepEqual(await sourcesOf('zz-one'), [
      { id: sourceId('zz-one', 'statuspage-v2', 'https://a.example/2'), url: 'https://a.example/2', consecutive_failures: 3 },
      { id: sourceId('zz-one', 'statuspage-v2', 'https://a.example/3'), url: 'https://a.example/3', consecutive_failures: 0 },
    ]);
    assert.deepEqual(await sourcesOf('zz-two'), [], 'a vendor listed without sources has none left');
  });

  test('an entry listed twice keeps its last values, as a row-by-row load did', async () => {
    const repo = vendorsRepository(t.store.db);
    await repo.upsertCatalog(
      [vendor('zz-dup', ['https://d.example/1'], 'First'), vendor('zz-dup', ['https://d.example/2', 'https://d.example/2'], 'Last')],
      new Date('2031-01-03T00:00:00Z'),
    );
    assert.equal((await repo.list(PUBLIC_AUDIENCE)).find((v) => v.slug === 'zz-dup')?.name, 'Last');
    assert.deepEqual(
      (await sourcesOf('zz-dup')).map((s) => s.url),
      ['https://d.example/2'],
    );
  });

  test('a catalog larger than one statement takes (more bound values than 30000)', async () => {
    const repo = vendorsRepository(t.store.db);
    const big = Array.from({ length: 3_200 }, (_, i) => vendor(`zz-big-${i}`, [`https://big.example/${i}`]));
    await repo.upsertCatalog(big, new Date('2031-01-04T00:00:00Z'));
    const count = await t.store.db
      .selectFrom('sources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('vendor', 'like', 'zz-big-%')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 3_200);
    await repo.upsertCatalog(
      big.map((v) => ({ ...v, sources: [] })),
      new Date('2031-01-05T00:00:00Z'),
    );
    const left = await t.store.db
      .selectFrom('sources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('vendor', 'like', 'zz-big-%')
      .executeTakeFirstOrThrow();
    assert.equal(Number(left.n), 0);
  });
});
