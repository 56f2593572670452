import { systemClock } from '../../domain/clock.ts';
import { withPrivateProbeHealth, withProbeHealth } from '../../services/operator.ts';
import { type Command, cliConfig, parseOptions } from '../command.ts';
import { printTable } from '../table.ts';

// `probes`: the health of every probe of vendors' public endpoints (docs/early-warning.md
// "Probes"): its state, latency p50/p99 and error rate over its baseline. A probe that has
// not answered yet is `unknown`, with no figures: nothing was observed. With `--org ID`, that
// organisation's private probes instead ("Private probes"): their state, including
// `credential_rejected`, and the credential as its header name and last four characters.

const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);

export const command: Command = {
  usage: 'probes [--vendor SLUG] [--org ID] [--json]',
  summary: "Each probe of vendors' public endpoints (or an organisation's private probes): state, latency p50/p99, error rate",
  async run(argv) {
    const opts = parseOptions(argv, { vendor: { type: 'string' }, org: { type: 'string' }, json: { type: 'boolean' } }, this.usage);
    if (opts.org !== undefined) return privateProbes(opts.org, opts.vendor, opts.json === true);
    const rows = await withProbeHealth(cliConfig(), systemClock, opts.vendor);
    if (opts.json) {
      console.log(JSON.stringify(rows, null, 2));
      return 0;
    }
    if (!rows.length) {
      console.log(
        opts.vendor
          ? `No probes for '${opts.vendor}' (or the server has not started on this store yet).`
          : 'No probes (the catalog lists none, or the server has not started on this store yet).',
      );
      return 0;
    }
    const head = ['STATE', 'VENDOR', 'KIND', 'P50', 'P99', 'ERRORS', 'SAMPLES', 'RELAXED', 'LAST SAMPLE', 'TARGET'];
    const table = rows.map((r) => [
      r.state,
      r.vendor,
      r.kind,
      ms(r.p50Ms),
      ms(r.p99Ms),
      r.errorRate === null ? '-' : `${(r.errorRate * 100).toFixed(1)} %`,
      String(r.samples),
      r.relaxSteps ? String(r.relaxSteps) : '-',
      r.lastSampleAt ?? '-',
      r.target,
    ]);
    printTable((line) => console.log(line), head, table);
    const bad = rows.filter((r) => r.state === 'anomalous');
    console.log(
      `\n${rows.length} probes, ${bad.length} anomalous.${bad.length ? `\n${bad.map((r) => `  ${r.vendor} ${r.target}: ${r.reason}`).join('\n')}` : ''}`,
    );
    return 0;
  },
};

async function privateProbes(orgId: string, vendor: string | undefined, json: boolean): Promise<number> {
  const rows = await withPrivateProbeHealth(cliConfig(), orgId, vendor);
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (!rows.length) {
    console.log(`No private probes for organisation '${orgId}'${vendor ? ` and '${vendor}'` : ''}.`);
    return 0;
  }
  const head = ['STATE', 'VENDOR', 'KIND', 'P50', 'P99', 'ERRORS', 'SAMPLES', 'EVERY', 'CREDENTIAL', 'LAST SAMPLE', 'TARGET'];
  const table = rows.map((r) => [
    r.state,
    r.vendor,
    r.kind,
    ms(r.p50Ms),
    ms(r.p99Ms),
    r.errorRate === null ? '-' : `${(r.errorRate * 100).toFixed(1)} %`,
    String(r.samples),
    `${r.intervalSeconds} s`,
    r.credential ? `${r.credential.name} …${r.credential.lastFour}` : '-',
    r.lastSampleAt ?? '-',
    r.target,
  ]);
  printTable((line) => console.log(line), head, table);
  const bad = rows.filter((r) => r.state === 'anomalous' || r.state === 'credential_rejected');
  console.log(
    `\n${rows.length} private probes, ${bad.length} anomalous or with a rejected credential.${bad.length ? `\n${bad.map((r) => `  ${r.vendor} ${r.target}: ${r.state}: ${r.reason}`).join('\n')}` : ''}`,
  );
  return 0;
}
