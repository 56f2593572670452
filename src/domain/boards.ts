import { DomainError } from './errors.ts';

// Rules of public status boards (docs/boards.md): how many a user may publish and
// which CSP frame-ancestors sources a board accepts for embedding.

export const MAX_BOARDS_PER_USER = 20;
export const DEFAULT_BOARD_TITLE = 'Our vendors';
export const MAX_FRAME_ANCESTORS = 20;
/** Embeddable anywhere unless the owner lists the sites that may frame it. */
const DEFAULT_FRAME_ANCESTORS: readonly string[] = ['*'];

/**
 * A CSP source expression for frame-ancestors: `*`, `'self'`, `'none'`, or a scheme
 * + host (wildcard subdomain allowed) + optional port. No paths, quotes, spaces,
 * semicolons or commas: the value goes into a response header as it is.
 */
const SOURCE = /^(?:\*|'self'|'none'|https?:\/\/(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(?:\d{1,5}|\*))?)$/;

/** Lower-cases, de-duplicates and checks the sources; 'none' cannot be combined with others. */
export function normaliseFrameAncestors(list: readonly string[] | undefined): string[] {
  if (list === undefined) return [...DEFAULT_FRAME_ANCESTORS];
  const out = [...new Set(list.map((s) => s.trim().toLowerCase()))];
  if (!out.length) throw new DomainError('invalid_parameter', 'frameAncestors needs at least one source', { parameter: 'frameAncestors' });
  if (out.length > MAX_FRAME_ANCESTORS) {
    throw new DomainError('invalid_parameter', `frameAncestors takes at most ${MAX_FRAME_ANCESTORS} sources`, { parameter: 'frameAncestors' });
  }
  for (const s of out) {
    if (!SOURCE.test(s)) {
      throw new DomainError(
        'invalid_parameter',
        `frameAncestors: "${s.slice(0, 100)}" is not a source (use *, 'self', 'none' or an origin such as https://intranet.example.com)`,
        { parameter: 'frameAncestors' },
      );
    }
  }
  if (out.includes("'none'") && out.length > 1) {
    throw new DomainError('invalid_parameter', "frameAncestors: 'none' cannot be combined with other sources", { parameter: 'frameAncestors' });
  }
  return out;
}

export const frameAncestorsDirective = (sources: readonly string[]) => `frame-ancestors ${sources.join(' ')}`;
