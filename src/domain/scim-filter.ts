import { CONTROL_CHARS, scimBadRequest } from './scim-errors.ts';

// The SCIM filters this service answers (RFC 7644 §3.4.2.2; docs/teams.md, "SCIM"):
// `attribute eq value`, optionally joined with `and`, on the attributes identity
// providers look resources up by. Okta sends `userName eq "x"` and `displayName eq "x"`;
// Entra ID sends `eq` joined with `and`, sometimes with the value unquoted. Everything
// else (other operators, `or`, `not`, grouping, value paths) is 400 invalidFilter, not a
// silently wider answer. Attribute names are case-insensitive. Pure: no I/O.

export const MAX_FILTER_LENGTH = 512;
const MAX_CLAUSES = 4;

export type ScimFilterAttribute = 'userName' | 'externalId' | 'displayName' | 'id';
export interface ScimFilterClause {
  attribute: ScimFilterAttribute;
  value: string;
}

const ATTRIBUTES: Record<string, ScimFilterAttribute> = {
  username: 'userName',
  externalid: 'externalId',
  displayname: 'displayName',
  id: 'id',
};

const invalid = (why: string) => scimBadRequest('invalidFilter', `Unsupported or malformed filter: ${why}`);

/** Reads a JSON-style quoted string starting at `i` (the opening quote); returns the value and the index after it. */
function quoted(text: string, i: number): { value: string; end: number } {
  let out = '';
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j]!;
    if (c === '"') return { value: out, end: j + 1 };
    if (c === '\\') {
      const n = text[j + 1];
      if (n === '"' || n === '\\' || n === '/') {
        out += n;
        j++;
        continue;
      }
      throw invalid('only \\" \\\\ and \\/ escapes are allowed in a value');
    }
    out += c;
  }
  throw invalid('a quoted value is not closed');
}

/**
 * Parses a filter into its clauses (all must hold). `allowed` names the attributes the
 * resource type can be filtered on.
 */
export function parseScimFilter(text: string, allowed: readonly ScimFilterAttribute[]): ScimFilterClause[] {
  if (text.length > MAX_FILTER_LENGTH) throw invalid(`longer than ${MAX_FILTER_LENGTH} characters`);
  if (CONTROL_CHARS.test(text)) throw invalid('control characters');
  const clauses: ScimFilterClause[] = [];
  let i = 0;
  const skipSpaces = () => {
    while (text[i] === ' ') i++;
  };
  const word = () => {
    const start = i;
    while (i < text.length && /[A-Za-z0-9_.:$-]/.test(text[i]!)) i++;
    return text.slice(start, i);
  };
  skipSpaces();
  for (;;) {
    const name = word();
    if (!name) throw invalid('an attribute name is expected');
    const attribute = ATTRIBUTES[name.toLowerCase()];
    if (!attribute || !allowed.includes(attribute)) throw invalid(`'${name}' cannot be filtered on here (use ${allowed.join(', ')})`);
    if (text[i] !== ' ') throw invalid('an operator is expected after the attribute');
    skipSpaces();
    const op = word();
    if (op.toLowerCase() !== 'eq') throw invalid(`operator '${op || text[i] || ''}' is not supported (only eq)`);
    if (text[i] !== ' ') throw invalid('a value is expected after eq');
    skipSpaces();
    let value: string;
    if (text[i] === '"') {
      const q = quoted(text, i);
      value = q.value;
      i = q.end;
    } else {
      // Entra ID's documented example leaves the value unquoted.
      const start = i;
      while (i < text.length && text[i] !== ' ') i++;
      value = text.slice(start, i);
      if (!value || /["()[\]]/.test(value)) throw invalid('a value is expected after eq');
    }
    clauses.push({ attribute, value });
    if (clauses.length > MAX_CLAUSES) throw invalid(`at most ${MAX_CLAUSES} clauses`);
    skipSpaces();
    if (i >= text.length) return clauses;
    const join = word();
    if (join.toLowerCase() !== 'and') throw invalid(`'${join || text[i]}' is not supported (only and)`);
    if (text[i] !== ' ') throw invalid('a clause is expected after and');
    skipSpaces();
  }
}
