import { Resolver } from 'node:dns/promises';
import type { TxtResolver } from '../domain/sso.ts';

// TXT records for domain verification (docs/teams.md, "Single sign-on"): the system's
// resolver, with a deadline. A name that does not exist (or has no TXT record) answers [].
export function systemTxtResolver(timeoutMs = 5000): TxtResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  return async (name) => {
    try {
      return await resolver.resolveTxt(name);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw err;
    }
  };
}
