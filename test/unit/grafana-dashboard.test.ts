import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { INDICATOR_LEVEL } from '../../src/domain/status-levels.ts';

// The Grafana dashboard in docs/ (docs/integrations.md) queries only series /metrics
// exposes, and its value mapping says what the numbers mean in src/domain/status-levels.ts.

const dashboard = JSON.parse(fs.readFileSync(new URL('../../docs/grafana/vendor-status-dashboard.json', import.meta.url), 'utf8'));
const EXPOSED = new Set(['vis_vendor_status', 'vis_vendor_active_incidents', 'vis_component_status']);

test('every query uses an exposed vendor series and the datasource input', () => {
  const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string; datasource: { uid: string } }[] }) =>
    p.targets.map((t) => {
      assert.equal(t.datasource.uid, '${DS_PROMETHEUS}');
      return t.expr;
    }),
  );
  assert.ok(exprs.length >= 5);
  for (const e of exprs) {
    const names = e.match(/vis_[a-z_]+/g) ?? [];
    assert.ok(names.length, e);
    for (const n of names) assert.ok(EXPOSED.has(n), `${n} in ${e}`);
  }
  assert.deepEqual(
    dashboard.__inputs.map((i: { name: string }) => i.name),
    ['DS_PROMETHEUS'],
  );
});

test('the status value mapping matches the documented levels', () => {
  const timeline = dashboard.panels.find((p: { type: string }) => p.type === 'state-timeline');
  const options: Record<string, { text: string }> = timeline.fieldConfig.defaults.mappings[0].options;
  const mapped = Object.fromEntries(Object.entries(options).map(([v, o]) => [o.text.replace(' ', '_'), Number(v)]));
  assert.deepEqual(mapped, INDICATOR_LEVEL);
});
