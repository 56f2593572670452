import { type Dispatcher, request } from 'undici';

// One outbound POST (or PATCH, PUT, GET) with a deadline. The answer's body is read (up to 64 KiB, to
// keep the connection reusable) and returned as text for error messages.

export interface PostResult {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const MAX_BODY = 64 * 1024;

export async function post(
  dispatcher: Dispatcher | undefined,
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  method: 'POST' | 'PATCH' | 'PUT' | 'GET' = 'POST',
): Promise<PostResult> {
  const res = await request(url, { method, ...(method === 'GET' ? {} : { body }), headers, signal, ...(dispatcher ? { dispatcher } : {}) });
  let text = '';
  for await (const chunk of res.body) {
    if (text.length < MAX_BODY) text += (chunk as Buffer).toString('utf8');
  }
  return { statusCode: res.statusCode, headers: res.headers, body: text.slice(0, MAX_BODY) };
}

export const header = (h: PostResult['headers'], name: string): string | null => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};
