import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// TypeScript types of the OpenAPI document for the typed client (docs/client.md).
// openapi-typescript needs the TypeScript 5 compiler API, so it is a dependency of the
// client's workspace (clients/typescript), not of the root project, which compiles with
// TypeScript 7; it is loaded from there.

export const CLIENT_DIR = path.resolve(import.meta.dirname, '../clients/typescript');
export const CLIENT_SCHEMA_FILE = path.join(CLIENT_DIR, 'src/schema.d.ts');

/** What this script uses of openapi-typescript (its types live in the client's workspace too). */
interface OpenApiTypescript {
  default(source: object, options: { alphabetize?: boolean; silent?: boolean }): Promise<unknown>;
  astToString(ast: unknown): string;
  COMMENT_HEADER: string;
}

export async function clientSchemaSource(doc: Record<string, unknown>): Promise<string> {
  const require = createRequire(path.join(CLIENT_DIR, 'package.json'));
  const entry = require.resolve('openapi-typescript').replace(/\.cjs$/, '.mjs');
  const ot = (await import(pathToFileURL(entry).href)) as OpenApiTypescript;
  // A deep copy: openapi-typescript annotates the object it reads.
  const ast = await ot.default(structuredClone(doc), { alphabetize: true, silent: true });
  return ot.COMMENT_HEADER + ot.astToString(ast);
}
