import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';

/** The generated OpenAPI document of an app built in-process (SQLite in a temporary directory, no ingestion). */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-openapi-'));
  try {
    const app = await buildApp(
      loadConfig({ ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, INGEST: 'off', LOG_LEVEL: 'silent', DEMO: 'false' }),
    );
    await app.ready();
    // A copy: the app's object must not outlive the app.
    const doc = JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
    await app.close();
    return doc;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
