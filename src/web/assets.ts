import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Static assets (CSS, ES modules, icons) are read once at start-up from
// src/web/assets and served from memory: no directory traversal is possible
// because only files found at start-up exist, and every URL carries a content
// hash so browsers can cache them for a year.

export const ASSET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface Asset {
  body: Buffer;
  type: string;
  hash: string;
  etag: string;
}

export class Assets {
  private readonly files = new Map<string, Asset>();

  constructor(dir = ASSET_DIR) {
    const walk = (sub: string) => {
      for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
        const rel = sub ? `${sub}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(rel);
        else {
          const type = TYPES[path.extname(entry.name)];
          if (!type) continue;
          const body = fs.readFileSync(path.join(dir, rel));
          const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
          this.files.set(rel, { body, type, hash, etag: `"${hash}"` });
        }
      }
    };
    walk('');
  }

  get(rel: string): Asset | undefined {
    return this.files.get(rel);
  }

  /** The versioned URL of an asset; throws for a name that does not exist (a typo in a template). */
  url(rel: string): string {
    const a = this.files.get(rel);
    if (!a) throw new Error(`Unknown asset ${rel}`);
    return `/assets/${rel}?v=${a.hash}`;
  }

  names(): string[] {
    return [...this.files.keys()];
  }
}
