import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { weeklyTrend, componentUptime, weekStartOf, type IncidentTiming } from '../../src/domain/trends.ts';
import { columnChart, labelLines, niceMax, percentFloor, rowChart, type ChartSpec } from '../../src/web/views/charts.ts';

// The server-rendered SVG charts (docs/web.md, "Charts") and the figures behind
// them (docs/statistics.md, "Trends").

const svgOf = (markup: string) => {
  const m = markup.match(/<svg[\s\S]*<\/svg>/);
  assert.ok(m, 'an <svg> element');
  return m[0];
};

const parse = (svg: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['rect', 'circle', 'text', 'line'].includes(n) }).parse(svg).svg;

const spec = (data: ChartSpec['data']): ChartSpec => ({
  id: 'c',
  title: 'Incidents <per> week',
  description: 'What & how',
  labelHeader: 'Week',
  valueHeader: 'Incidents',
  data,
});

test('a column chart is well-formed SVG with an accessible name, description and a table', () => {
  const out = columnChart(spec([{ label: 'a', value: 1, text: '1' }])).value;
  const svg = svgOf(out);
  assert.equal(XMLValidator.validate(svg), true);
  const root = parse(svg);
  assert.equal(root.role, 'img');
  assert.equal(root['aria-labelledby'], 'c-title c-desc');
  assert.equal(root.title['#text'] ?? root.title, 'Incidents <per> week');
  assert.match(out, /<table>[\s\S]*<th scope="row">a<\/th><td>1<\/td>/);
  assert.ok(!/\sstyle=/.test(out), 'no style attribute (CSP)');
});

test('column heights are proportional to the data on a nice axis from zero', () => {
  const out = columnChart(
    spec([
      { label: 'w1', value: 2, text: '2' },
      { label: 'w2', value: 4, text: '4' },
      { label: 'w3', value: 0, text: '0' },
    ]),
  ).value;
  const bars = parse(svgOf(out)).g.find((g: any) => g.class === 'chart__bars').rect as any[];
  assert.equal(bars.length, 3);
  const h = bars.map((b) => Number(b.height));
  assert.equal(niceMax(4), 5);
  // Plot height 168 on an axis to 5: 2 → 67.2, 4 → 134.4, 0 → 0.
  assert.deepEqual(h, [67.2, 134.4, 0]);
  assert.ok(Math.abs(h[1]! / h[0]! - 2) < 0.01);
  // Bars stand on the same baseline.
  assert.equal(new Set(bars.map((b) => Number(b.y) + Number(b.height))).size, 1);
});

test('an unobserved value is a "no data" outline, never a bar, and the table says so', () => {
  const out = columnChart(
    spec([
      { label: 'w1', value: null, text: '' },
      { label: 'w2', value: 3, text: '3' },
      { label: 'w3', value: null, text: '', note: 'Pro plan' },
    ]),
  ).value;
  const groups = parse(svgOf(out)).g as any[];
  const bars = groups.find((g) => g.class === 'chart__bars').rect as any[];
  assert.equal(bars.length, 1, 'one bar: the observed week');
  assert.equal(bars[0]['data-value'], '3');
  // The two gaps are shaded zones behind the plot, not bars: no value, marked by kind.
  const zones = groups.find((g) => g.class === 'chart__zones').rect as any[];
  assert.deepEqual(
    zones.map((r) => [r.class, r['data-nodata']]),
    [
      ['chart__nodata', 'unobserved'],
      ['chart__locked', 'locked'],
    ],
  );
  assert.ok(zones.every((z) => z['data-value'] === undefined));
  assert.match(out, /<th scope="row">w1<\/th><td>no data<\/td>/);
  assert.match(out, /<th scope="row">w3<\/th><td>Pro plan<\/td>/);
  assert.match(out, /shaded: no data/);
});

test('all values unobserved: no bar at all', () => {
  const out = columnChart(
    spec([
      { label: 'a', value: null, text: '' },
      { label: 'b', value: null, text: '' },
    ]),
  ).value;
  assert.equal(XMLValidator.validate(svgOf(out)), true);
  assert.ok(!out.includes('chart__bar"'));
  // Consecutive gaps are one zone.
  const zones = parse(svgOf(out)).g.find((g: any) => g.class === 'chart__zones').rect as any[];
  assert.equal(zones.length, 1);
  assert.equal(zones[0]['data-slots'], '2');
});

test('a percentage row chart places dots on a labelled axis; bars from zero otherwise', () => {
  const data = [
    { label: 'API', value: 100, text: '100%' },
    { label: 'Web', value: 99.5, text: '99.5%' },
    { label: 'Never seen', value: null, text: '' },
  ];
  const from = percentFloor(data.map((d) => d.value));
  assert.equal(from, 99);
  const out = rowChart(spec(data), { percentFrom: from }).value;
  const svg = svgOf(out);
  assert.equal(XMLValidator.validate(svg), true);
  const root = parse(svg);
  const dots = root.circle as any[];
  assert.equal(dots.length, 2, 'no dot for the unobserved component');
  // 100% at the right end, 99.5% half-way along the axis from 99%.
  const x = dots.map((d) => Number(d.cx));
  const plotX = 188;
  const plotW = 640 - plotX - 120;
  assert.ok(Math.abs(x[0]! - (plotX + plotW)) < 0.2);
  assert.ok(Math.abs(x[1]! - (plotX + plotW / 2)) < 0.2);
  assert.ok(
    (root.text as any[]).some((t) => t['#text'] === '99%'),
    'the axis start is written',
  );
  assert.ok((root.rect as any[]).some((r) => r.class === 'chart__nodata'));

  const counts = rowChart(
    spec([
      { label: 'a', value: 10, text: '10' },
      { label: 'b', value: 5, text: '5' },
    ]),
  ).value;
  const widths = (parse(svgOf(counts)).rect as any[]).map((r) => Number(r.width));
  assert.ok(Math.abs(widths[0]! / widths[1]! - 2) < 0.01);
});

const span = (from: string | null, until: string) => ({ from, until });
const timing = (startedAt: string, minutes: number | null, over: Partial<IncidentTiming> = {}): IncidentTiming => ({
  vendor: 'v',
  impact: 'major',
  startedAt,
  resolvedAt: minutes === null ? null : new Date(Date.parse(startedAt) + minutes * 60_000).toISOString(),
  components: [],
  ...over,
});

test('weekly trend: counts and MTTR per calendar week; unobserved weeks have no figure', () => {
  const now = new Date('2026-11-25T12:00:00Z'); // a Wednesday
  assert.equal(new Date(weekStartOf(now.getTime())).toISOString(), '2026-11-23T00:00:00.000Z');
  const rows = [
    timing('2026-11-24T10:00:00Z', 60),
    timing('2026-11-23T01:00:00Z', 120),
    timing('2026-11-17T10:00:00Z', null), // open: counted, no MTTR
  ];
  const weeks = weeklyTrend(rows, 4, now, span('2026-11-12T00:00:00Z', now.toISOString()), null);
  assert.deepEqual(
    weeks.map((w) => w.weekStart),
    ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'],
  );
  assert.deepEqual(
    weeks.map((w) => w.incidentCount),
    [null, 0, 1, 2],
  );
  assert.deepEqual(
    weeks.map((w) => w.mttrMinutes),
    [null, null, null, 90],
  );
  // Plan window: weeks before it show no MTTR.
  const capped = weeklyTrend(rows, 4, now, span('2026-11-01T00:00:00Z', now.toISOString()), new Date('2026-11-18T12:00:00Z'));
  assert.deepEqual(
    capped.map((w) => w.mttrLocked),
    [true, true, true, false],
  );
  // Never observed, no incident: nothing at all.
  assert.ok(weeklyTrend([], 3, now, span(null, now.toISOString()), null).every((w) => w.incidentCount === null));
});

test('component uptime: only incidents naming the component count; unobserved is null', () => {
  const now = new Date('2026-11-25T00:00:00Z');
  const since = new Date('2026-11-15T00:00:00Z');
  const rows = [timing('2026-11-20T00:00:00Z', 24 * 60, { components: ['API'] })];
  const observed = span('2026-11-15T00:00:00Z', now.toISOString());
  const [api, web] = componentUptime(rows, ['API', 'Web'], since, now, observed);
  assert.equal(api!.uptimePercent, 90); // one day of ten down
  assert.equal(api!.incidentCount, 1);
  assert.equal(web!.uptimePercent, 100);
  assert.equal(componentUptime(rows, ['API'], since, now, span(null, now.toISOString()))[0]!.uptimePercent, null);
});

test('row labels wrap between words and stay whole; only an over-long word or a fourth line is cut', () => {
  assert.deepEqual(labelLines('GitHub'), ['GitHub']);
  assert.deepEqual(labelLines('Python Package Index (PyPI)'), ['Python Package', 'Index (PyPI)']);
  assert.deepEqual(labelLines('Amazon Web Services (AWS)'), ['Amazon Web', 'Services (AWS)']);
  assert.deepEqual(labelLines('Supercalifragilistic'), ['Supercalifrag…']);
  assert.deepEqual(labelLines('one two three four five six seven eight nine ten eleven twelve'), ['one two three', 'four five six', 'seven eight…']);
  // Every row takes the tallest label's height: the chart grows, no label overlaps the next.
  const one = rowChart(spec([{ label: 'a', value: 1, text: '1' }])).value;
  const two = rowChart(spec([{ label: 'Python Package Index (PyPI)', value: 1, text: '1' }])).value;
  const height = (svg: string) => Number(/viewBox="0 0 \d+ (\d+)"/.exec(svg)![1]);
  assert.equal(height(two) - height(one), 20);
  assert.match(two, /<tspan x="180" dy="0">Python Package<\/tspan><tspan x="180" dy="20">Index \(PyPI\)<\/tspan>/);
});
