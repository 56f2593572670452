// Finds references to repository files and doc sections that do not resolve
// (used by doc-references.test.ts; docs/testing.md, "References").
import fs from 'node:fs';
import path from 'node:path';

const SCANNED_DIRS = ['src', 'test', 'docs', 'bench', 'scripts', '.ci'];
const SCANNED_EXTENSIONS = /\.(ts|mts|mjs|cjs|js|md|sh)$|^run$/;
/** The check's own files, whose examples name files that do not exist on purpose. */
const SKIPPED_FILES = /^test\/unit\/doc-references(\.test)?\.ts$/;

// A path starts at a top folder of the repository and is not the tail of another path, a
// package's subpath (`@scope/pkg/src/…`, `sdk/shared/…`) or another repository's path
// (`owner/name:src/…`).
const PATH = /(?<![\w/.@:-])((?:src|test|docs|bench|scripts)\/[\w./{},*-]*[\w*}/])/g;
// `docs/x.md, "Section"` or `docs/x.md "Section"`, the section possibly wrapped over lines of a
// comment.
const SECTION = /(docs\/[\w-]+\.md),?\s+\(?"([^"]{1,200})"/g;

const COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (SCANNED_EXTENSIONS.test(entry.name) && !SKIPPED_FILES.test(child)) {
        out.push(child);
      }
    }
  };
  for (const dir of SCANNED_DIRS) walk(dir);
  if (fs.existsSync(path.join(root, 'README.md'))) out.push('README.md');
  return out.sort();
}

/** `src/{a,b}.ts` → `src/a.ts`, `src/b.ts`. */
function expandBraces(ref: string): string[] {
  const m = /\{([^{}]*)\}/.exec(ref);
  if (!m) return [ref];
  return m[1]!.split(',').flatMap((alt) => expandBraces(ref.slice(0, m.index) + alt + ref.slice(m.index + m[0].length)));
}

function pathExists(root: string, ref: string): boolean {
  const clean = ref.replace(/\.+$/, '');
  if (!clean.includes('*')) return fs.existsSync(path.join(root, clean));
  // A glob: its folder must exist and hold at least one match.
  const dir = path.join(root, path.posix.dirname(clean));
  const pattern = new RegExp(
    `^${path.posix
      .basename(clean)
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  );
  return fs.existsSync(dir) && fs.readdirSync(dir).some((name) => pattern.test(name));
}

const headingCache = new Map<string, string[]>();
function headings(root: string, doc: string): string[] {
  let found = headingCache.get(`${root}\0${doc}`);
  if (!found) {
    found = fs
      .readFileSync(path.join(root, doc), 'utf8')
      .split('\n')
      .flatMap((line) => /^#+\s+(.*)$/.exec(line)?.[1]?.trim() ?? []);
    headingCache.set(`${root}\0${doc}`, found);
  }
  return found;
}

/** Joins a section name wrapped over comment lines: `"Wire\n// format"` → `Wire format`. */
function sectionName(raw: string): string {
  return raw
    .replace(/\n\s*(?:\/\/|\*|#)?\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function findDanglingReferences(root: string): string[] {
  const dangling: string[] = [];
  for (const file of filesUnder(root)) {
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    // In code only comments are read: a path in a string is data (a test's temporary tree).
    const text = /\.md$/.test(file) ? source : (source.match(COMMENTS) ?? []).join('\n');
    for (const m of text.matchAll(PATH)) {
      for (const ref of expandBraces(m[1]!)) {
        if (!pathExists(root, ref)) dangling.push(`${file}: ${ref.replace(/\.+$/, '')}`);
      }
    }
    for (const m of text.matchAll(SECTION)) {
      const doc = m[1]!;
      if (!fs.existsSync(path.join(root, doc))) continue; // reported as a path above
      const name = sectionName(m[2]!);
      if (!headings(root, doc).some((h) => h === name || h.startsWith(`${name} (`) || h.startsWith(`${name}:`))) {
        dangling.push(`${file}: ${doc} "${name}"`);
      }
    }
  }
  return [...new Set(dangling)];
}
