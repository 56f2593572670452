// Turning response bytes into text or JSON. Upstreams are not uniformly UTF-8
// (AWS currentevents is UTF-16 big-endian with a BOM), so the BOM decides first,
// then the Content-Type charset, then strict UTF-8.
import { AdapterError } from './adapter.ts';

type Encoding = 'utf-8' | 'utf-16be' | 'utf-16le' | 'latin1';

function sniffEncoding(body: Buffer, contentType?: string | null): Encoding {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === 'utf-16be') return 'utf-16be';
  if (charset === 'utf-16le' || charset === 'utf-16') return 'utf-16le';
  if (charset === 'iso-8859-1' || charset === 'latin1' || charset === 'windows-1252') return 'latin1';
  return 'utf-8';
}

/** Decodes the body to a string; rejects empty bodies and bytes invalid in their encoding. */
export function decodeBody(context: string, body: Buffer, contentType?: string | null): string {
  if (body.length === 0) throw new AdapterError(`${context}: empty body`, { kind: 'empty body' });
  const encoding = sniffEncoding(body, contentType);
  let text: string;
  try {
    // fatal: a truncated or mis-labelled body must fail loudly, not turn into U+FFFD soup.
    text = new TextDecoder(encoding === 'latin1' ? 'windows-1252' : encoding, { fatal: true }).decode(body);
  } catch (err) {
    throw new AdapterError(`${context}: body is not valid ${encoding.toUpperCase()}`, { cause: err, kind: `body is not valid ${encoding.toUpperCase()}` });
  }
  // TextDecoder strips a leading BOM already; a second one would still break JSON.parse.
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new AdapterError(`${context}: empty body`, { kind: 'empty body' });
  return text;
}

export function parseJsonText(context: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new AdapterError(`${context}: invalid JSON (${detail})`, { cause: err, kind: 'invalid JSON' });
  }
}

export function parseJsonBody(context: string, body: Buffer, contentType?: string | null): unknown {
  return parseJsonText(context, decodeBody(context, body, contentType));
}

/** True when the text looks like JSON rather than XML (used by formats served both ways). */
export function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}
