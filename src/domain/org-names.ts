import { invalidParameter } from './errors.ts';

// Organisation names as people type them (docs/teams.md, "Data model"): trimmed,
// 1-80 characters, no control characters (they end up in page titles, CSV exports and
// e-mails). Pure.

const MAX_NAME = 80;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function orgName(raw: string): string {
  const name = raw.trim();
  if (!name) throw invalidParameter('name', 'must not be empty');
  if (name.length > MAX_NAME) throw invalidParameter('name', `at most ${MAX_NAME} characters`);
  if (CONTROL.test(name)) throw invalidParameter('name', 'must not contain control characters');
  return name;
}
