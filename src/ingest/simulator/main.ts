import fs from 'node:fs';
import { readCatalog } from '../../services/vendors/catalog-loader.ts';
import { systemClock } from '../../domain/clock.ts';
import type { Impact } from '../../domain/records.ts';
import { createSimulator } from './index.ts';

// The simulated fleet as a process of its own (the benchmark runs it apart from the
// service so its CPU is not counted against ingestion; it is also handy to point a
// normally started service at with CATALOG_FILE).
//
//   tsx src/ingest/simulator/main.ts --catalog catalog/vendors.json --out /tmp/sim-catalog.json \
//       [--port 0] [--seed 1] [--step-seconds 5] [--history]
//
// Prints `listening <base url>` once ready. Under a parent process (IPC), the
// message 'step' advances the fleet once and is answered with the number of changes;
// `{ open: { vendor, title, impact? } }` opens one incident now and is answered with its
// id and the instant it was published (the freshness benchmark's known changes).

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const catalog = readCatalog(arg('catalog'));
const sim = createSimulator({
  catalog,
  clock: systemClock,
  seed: Number(arg('seed') ?? 1),
  history: process.argv.includes('--history'),
});
const base = await sim.listen(Number(arg('port') ?? 0), arg('host') ?? '127.0.0.1');
const out = arg('out');
if (out) fs.writeFileSync(out, JSON.stringify(sim.rewriteCatalog(catalog)));
const step = Number(arg('step-seconds') ?? 0);
if (step > 0) sim.startTimer(step * 1000);
process.on('message', (msg) => {
  if (msg === 'step') process.send?.({ changes: sim.step().length });
  const open = (msg as { open?: { vendor: string; title: string; impact?: Impact } } | null)?.open;
  if (open) {
    const inc = sim.fleet.openIncident(open.vendor, { title: open.title, impact: open.impact ?? 'major' });
    process.send?.({ opened: { id: inc.id, vendor: open.vendor, title: inc.title, publishedAt: inc.startedAt } });
  }
  if (msg === 'stats') process.send?.({ requests: sim.stats.requests, notModified: sim.stats.notModified });
});
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
console.log(`listening ${base}`);
