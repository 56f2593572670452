import { repositoriesOn } from '../../services/repositories.ts';
import { type Command, cliConfig, parseOptions, withStore } from '../command.ts';
import { printTable } from '../table.ts';

const state = (s: { lastSuccessAt: string | null; lastErrorAt: string | null; consecutiveFailures: number }) =>
  s.consecutiveFailures > 0 ? 'failing' : s.lastSuccessAt ? 'ok' : s.lastErrorAt ? 'failing' : 'never polled';

export const command: Command = {
  usage: 'sources [--vendor SLUG] [--json]',
  summary: 'List every polled source with its health (last success, last error, failures, next poll)',
  async run(argv) {
    const opts = parseOptions(argv, { vendor: { type: 'string' }, json: { type: 'boolean' } }, this.usage);
    const config = cliConfig();
    const rows = await withStore(config, async (store) => {
      await store.migrate();
      return repositoriesOn(store.db).sources.list(opts.vendor);
    });
    if (opts.json) {
      console.log(JSON.stringify(rows.map((r) => ({ ...r, state: state(r) })), null, 2));
      return 0;
    }
    if (!rows.length) {
      console.log(opts.vendor ? `No sources for '${opts.vendor}'.` : 'No sources (start the server or run `migrate` and `ingest --once` first).');
      return 0;
    }
    const head = ['STATE', 'VENDOR', 'TYPE', 'LAST SUCCESS', 'FAILS', 'NEXT POLL', 'LAST ERROR', 'URL'];
    const table = rows.map((r) => [
      state(r),
      r.vendor,
      r.type,
      r.lastSuccessAt ?? '-',
      String(r.consecutiveFailures),
      r.nextPollAt ?? 'due',
      r.lastError ? `${r.lastErrorAt} ${r.lastError.slice(0, 60)}` : '-',
      r.url,
    ]);
    printTable((line) => console.log(line), head, table);
    const failing = rows.filter((r) => state(r) === 'failing').length;
    console.log(`\n${rows.length} sources, ${failing} failing.`);
    return 0;
  },
};
