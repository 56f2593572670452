import type { Config } from './infra/config.ts';
import type { DemoLogin } from './services/demo-login.ts';

// The start-up banner (docs/operations.md "Start-up banner"): where to go, what runs
// and on which store, and in demo mode a login and an API key ready to use.

export interface BannerFacts {
  port: number;
  serving: boolean;
  mcpPort: number | null;
  demo: DemoLogin | null;
  demoLoginFile: string | null;
}

function baseUrl(config: Config, port: number): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/$/, '');
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

function storeLabel(config: Config): string {
  if (!config.databaseUrl) return `SQLite in ${config.dataDir}`;
  const u = new URL(config.databaseUrl);
  return `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}${config.databaseSchema ? ` (schema ${config.databaseSchema})` : ''}`;
}

export function bannerLines(config: Config, f: BannerFacts): string[] {
  const base = baseUrl(config, f.port);
  const lines = [`Vendor Infrastructure Status API${config.demo ? ' — DEMO (simulated vendors, made-up data)' : ''}`];
  if (f.serving) {
    lines.push(
      `  Dashboard     ${base}/`,
      `  API docs      ${base}/docs`,
      `  REST API      ${base}/api/v1/infrastructure/vendor-list`,
      `  MCP endpoint  ${base}/mcp${f.mcpPort !== null ? ` (also ${baseUrl(config, f.mcpPort)}/mcp)` : ''}`,
    );
  } else lines.push(`  Probes        ${base}/healthz, ${base}/readyz, ${base}/metrics`);
  lines.push(
    `  Roles         ${config.roles.join(', ')}`,
    `  Store         ${storeLabel(config)}${config.redisUrl ? ' + Redis' : ''}`,
    `  Polling       ${config.roles.includes('ingest') && config.ingest === 'live' ? (config.demo ? 'the simulated fleet (demo)' : 'live vendor pages') : 'off'}`,
  );
  const d = f.demo;
  if (d) {
    lines.push(
      '',
      `  Demo login    ${d.email} / ${d.password ?? '(password set at first start, now lost; delete the demo store to start over)'}`,
      `  API key       ${d.apiKey}`,
      `  Try it        curl -H 'X-API-Key: ${d.apiKey}' ${base}/api/v1/infrastructure/incidents?limit=5`,
      `  (kept in ${f.demoLoginFile}; the CLI works on this store with: npm run cli -- --demo users list)`,
    );
  }
  return lines;
}
