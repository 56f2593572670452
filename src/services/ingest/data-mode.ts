import { ConfigError } from '../../infra/config.ts';
import type { DataMode, DataModeRepository } from '../../store/repositories/data-mode-repository.ts';

// A store remembers whether it holds live or simulated data. A normal start never
// serves simulated data: it removes it first (it was made up, nothing is lost). A
// demo start never mixes made-up records into live data: it refuses to run on a
// store that already holds live records. A demo start simulates a new fleet (new
// ids, new history), so the server starts it on a clean slate rather than mixing
// two fleets' records (docs/operations.md "Demo").

export interface DataModeLog {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export async function ensureDataMode(repo: DataModeRepository, mode: DataMode, now: Date, log?: DataModeLog, o: { freshDemo?: boolean } = {}): Promise<void> {
  const stored = await repo.get();
  if (stored === 'demo' && mode === 'demo' && o.freshDemo && (await repo.hasIngestedData())) {
    await repo.clearIngestedData();
    log?.info({}, "demo restarted: the previous simulated fleet's records were removed (each start simulates a new fleet); accounts and settings are kept");
    return;
  }
  if (stored === mode) return;
  if (mode === 'live') {
    if (stored === 'demo') {
      await repo.clearIngestedData();
      log?.warn({ previous: 'demo' }, 'the store held simulated demo data; it was removed before serving live data');
    }
    await repo.set('live', now);
    return;
  }
  // Demo mode on a store that may hold live records.
  if (await repo.hasIngestedData()) {
    throw new ConfigError(
      'DEMO',
      'the store holds live data; demo mode needs a store of its own (leave DATA_DIR unset for ./data/demo, or point DATA_DIR / DATABASE_URL elsewhere)',
    );
  }
  await repo.set('demo', now);
}
