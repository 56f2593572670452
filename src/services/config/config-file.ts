import { Value } from '@sinclair/typebox/value';
import { isMap, LineCounter, parseAllDocuments, parseDocument, stringify } from 'yaml';
import {
  CONFIG_CONTROL,
  type ConfigFile,
  ConfigFileSchema,
  type ConfigProblem,
  formatPath,
  MAX_CONFIG_ALIASES,
  MAX_CONFIG_CHARS,
  type PathPart,
} from '../../domain/org-config.ts';

// Reading and writing the config file (docs/services.md "Config as code"): YAML through the
// `yaml` package, every problem with its path and line, aliases capped (a "billion laughs"
// file is refused, not expanded), control characters and unknown fields refused.

export interface ParsedConfig {
  file: ConfigFile | null;
  problems: ConfigProblem[];
  /** The line (1-based) of a path in the file, or of its nearest parent present. */
  lineOf(path: readonly PathPart[]): number | null;
}

const jsonPointerParts = (pointer: string): PathPart[] =>
  pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));

export function parseConfig(text: string): ParsedConfig {
  const none: ParsedConfig = { file: null, problems: [], lineOf: () => null };
  if (typeof text !== 'string' || !text.trim()) return { ...none, problems: [{ path: '(file)', line: null, message: 'the file is empty' }] };
  if (text.length > MAX_CONFIG_CHARS)
    return { ...none, problems: [{ path: '(file)', line: null, message: `the file is over ${MAX_CONFIG_CHARS} characters` }] };
  const control = CONFIG_CONTROL.exec(text);
  if (control) {
    const line = text.slice(0, control.index).split('\n').length;
    return { ...none, problems: [{ path: '(file)', line, message: 'the file holds a control character' }] };
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false, merge: false });
  const lineAt = (offset: number | undefined) => (offset === undefined ? null : counter.linePos(offset).line);
  const lineOf = (path: readonly PathPart[]): number | null => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return lineAt(node.range[0]);
    }
    return null;
  };
  const problems: ConfigProblem[] = [...doc.errors, ...doc.warnings].map((e) => ({
    path: '(file)',
    line: lineAt(e.pos?.[0]),
    message: e.message.split('\n')[0]!.slice(0, 300),
  }));
  if (problems.length) return { file: null, problems, lineOf };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_CONFIG_ALIASES });
  } catch (err) {
    return { file: null, problems: [{ path: '(file)', line: null, message: `the file cannot be read: ${(err as Error).message.slice(0, 200)}` }], lineOf };
  }
  if (!isMap(doc.contents))
    return { file: null, problems: [{ path: '(file)', line: 1, message: 'the file must be a mapping with version, services, watchlists and routes' }], lineOf };
  for (const e of Value.Errors(ConfigFileSchema, data)) {
    const path = jsonPointerParts(e.path);
    problems.push({
      path: formatPath(path),
      line: lineOf(path),
      message: schemaMessage(e.message, e.schema as { additionalProperties?: unknown }, path, data),
    });
    if (problems.length >= 100) break;
  }
  // Unions report one error per branch; one line per path reads better.
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const key = p.path;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { file: unique.length ? null : (data as ConfigFile), problems: unique, lineOf };
}

function schemaMessage(message: string, _schema: { additionalProperties?: unknown }, path: PathPart[], data: unknown): string {
  // Value.Errors says "Unexpected property" at the unknown key's own path.
  let parent: unknown = data;
  for (const p of path.slice(0, -1)) parent = parent && typeof parent === 'object' ? (parent as Record<string, unknown>)[p as string] : undefined;
  const last = path[path.length - 1];
  if (typeof last === 'string' && parent && typeof parent === 'object' && !Array.isArray(parent) && /unexpected property/i.test(message))
    return `unknown field '${last.slice(0, 60)}'`;
  return message;
}

/** The file as YAML, keys in the schema's order. */
export function writeConfig(file: ConfigFile): string {
  return stringify(file, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The documents of a Backstage catalog file (several, separated by `---`), under the same limits. */
export function parseBackstage(text: string): { docs: unknown[] | null; problems: ConfigProblem[] } {
  if (typeof text !== 'string' || !text.trim()) return { docs: null, problems: [{ path: '(file)', line: null, message: 'the file is empty' }] };
  if (text.length > MAX_CONFIG_CHARS)
    return { docs: null, problems: [{ path: '(file)', line: null, message: `the file is over ${MAX_CONFIG_CHARS} characters` }] };
  const control = CONFIG_CONTROL.exec(text);
  if (control)
    return { docs: null, problems: [{ path: '(file)', line: text.slice(0, control.index).split('\n').length, message: 'the file holds a control character' }] };
  const counter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false, merge: false });
  const all = Array.isArray(parsed) ? parsed : [];
  const problems: ConfigProblem[] = all.flatMap((doc) =>
    doc.errors.map((e) => ({ path: '(file)', line: e.pos ? counter.linePos(e.pos[0]).line : null, message: e.message.split('\n')[0]!.slice(0, 300) })),
  );
  if (!Array.isArray(parsed)) problems.push({ path: '(file)', line: null, message: 'the file cannot be read as YAML' });
  if (problems.length) return { docs: null, problems };
  try {
    return { docs: all.map((doc) => doc.toJS({ maxAliasCount: MAX_CONFIG_ALIASES })), problems: [] };
  } catch (err) {
    return { docs: null, problems: [{ path: '(file)', line: null, message: `the file cannot be read: ${(err as Error).message.slice(0, 200)}` }] };
  }
}
