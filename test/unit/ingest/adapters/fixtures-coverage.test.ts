// Every recorded payload (`fixturesRoot`, helpers.ts) goes through its adapter and
// yields a snapshot that honours the record contract (or, for formats we do not
// ingest, a precise AdapterError). Format-specific tests assert the actual content.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { assertSnapshotInvariants, FIXTURE_SOURCES, fixturesPresent, listFixtureFiles, parseFixture, SKIP_MESSAGE } from './helpers.ts';

describe('recorded upstream fixtures', () => {
  test('every fixture file is assigned to an adapter', (t) => {
    if (!fixturesPresent) return t.skip(SKIP_MESSAGE);
    assert.deepEqual(listFixtureFiles(), Object.keys(FIXTURE_SOURCES).sort());
  });

  for (const [file, source] of Object.entries(FIXTURE_SOURCES)) {
    test(`${file} → ${source.type}`, (t) => {
      if (source.rejects) {
        if (!fixturesPresent) return t.skip(SKIP_MESSAGE);
        assert.throws(
          () => parseFixture(t, file),
          (err: unknown) => err instanceof AdapterError && err.code === 'malformed_payload' && err.message.includes(source.rejects!),
        );
        return;
      }
      const snapshot = parseFixture(t, file);
      if (!snapshot) return;
      assertSnapshotInvariants(snapshot, source.vendor, source.type);
      const total = (snapshot.incidents?.length ?? 0) + (snapshot.maintenances?.length ?? 0) + (snapshot.components?.length ?? 0) + (snapshot.status ? 1 : 0);
      assert.ok(total > 0 || file.includes('unresolved') || file.includes('scheduled-maintenances/'), 'snapshot says something');
    });
  }
});
