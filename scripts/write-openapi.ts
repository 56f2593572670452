import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

// Writes the generated OpenAPI document to build/openapi.json (for linting and publishing).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-openapi-'));
const app = await buildApp(loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, INGEST: 'off', LOG_LEVEL: 'silent', DEMO: 'false' }));
await app.ready();
fs.mkdirSync('build', { recursive: true });
fs.writeFileSync('build/openapi.json', JSON.stringify(app.swagger(), null, 2));
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log('build/openapi.json written');
