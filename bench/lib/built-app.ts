import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The service as `npm start` runs it: src/ compiled by tsc into dist/ (scripts/build.mjs),
// not the sources through tsx, whose transform wraps every function for its name and adds
// work per call that production does not do. Benchmarks that time the request path load
// the app from here (docs/benchmarks.md "Which build is timed").

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

type AppModule = typeof import('../../src/app.ts');
type ConfigModule = typeof import('../../src/infra/config.ts');
type DbModule = typeof import('../../src/store/db.ts');
type IncidentsModule = typeof import('../../src/store/repositories/incidents-repository.ts');

export interface BuiltApp {
  buildApp: AppModule['buildApp'];
  API_PREFIX: AppModule['API_PREFIX'];
  loadConfig: ConfigModule['loadConfig'];
  openStore: DbModule['openStore'];
  incidentsRepository: IncidentsModule['incidentsRepository'];
}

const fromDist = (file: string) => import(pathToFileURL(path.join(root, 'dist', file)).href);

/** Builds dist/ when a source is newer than the last build, then loads the modules the benchmark needs from it. */
export async function builtApp(): Promise<BuiltApp> {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-needed'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const [app, config, db, incidents] = await Promise.all([
    fromDist('app.js') as Promise<AppModule>,
    fromDist('infra/config.js') as Promise<ConfigModule>,
    fromDist('store/db.js') as Promise<DbModule>,
    fromDist('store/repositories/incidents-repository.js') as Promise<IncidentsModule>,
  ]);
  return {
    buildApp: app.buildApp,
    API_PREFIX: app.API_PREFIX,
    loadConfig: config.loadConfig,
    openStore: db.openStore,
    incidentsRepository: incidents.incidentsRepository,
  };
}
