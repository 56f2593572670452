import type { Kysely } from 'kysely';
import { DomainError } from '../../domain/errors.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { Database } from '../schema.ts';

// Values sealed with the secrets key outside the preferences row (docs/security.md
// "Channel secrets"): opening one for a worker, and re-sealing a whole column with the
// current key after a rotation.

/** A sealed value opened for a worker; `unreadable` when this instance lacks its key. */
export interface OpenedSecret {
  value: string | null;
  unreadable: boolean;
}

/**
 * Opens a value for a worker's outbound call. A value sealed with a key this instance
 * does not have (a rotation whose previous key was dropped too early) is `unreadable`
 * rather than thrown, so one such row never stops a whole round; readers without the
 * secrets key (`box` undefined) find every value unreadable.
 */
export function openSecret(box: SecretBox | undefined, stored: string | null): OpenedSecret {
  if (stored === null) return { value: null, unreadable: false };
  try {
    if (!box) throw new Error('no secrets key');
    return { value: box.open(stored), unreadable: false };
  } catch {
    return { value: null, unreadable: true };
  }
}

/**
 * Opens a value for an API request or a signed exchange. A value sealed with a key this instance
 * does not have is a 503 naming the way out (`what` says whose secret it is), never a 500: the
 * caller can try again once an operator restores the key (docs/security.md "Channel secrets").
 */
export function openOrUnavailable(box: SecretBox, stored: string, what: string): string {
  try {
    return box.open(stored);
  } catch {
    throw new DomainError('unavailable', `${what} sealed with a secrets key this instance does not have; an operator must restore it (SECRETS_KEY_PREVIOUS)`);
  }
}

/** A column holding one sealed value per row, and the column that names the row. */
export interface SealedColumn<T extends keyof Database> {
  table: T;
  key: keyof Database[T] & string;
  column: keyof Database[T] & string;
}

/**
 * Re-seals with the current key every value of the column that is clear text or sealed
 * with a previous key; returns how many rows were rewritten. Each write is conditional on
 * the value read (another instance starting at the same time, or a user saving a new
 * value, wins and the row is left alone). A value no key of this instance opens stays as
 * it is: its readers handle it as unreadable.
 */
export async function resealColumn<T extends keyof Database>(db: Kysely<Database>, box: SecretBox, c: SealedColumn<T>): Promise<number> {
  // The table and columns are given by the caller, so the builder is untyped here.
  const q = db as unknown as Kysely<Record<string, Record<string, string | null>>>;
  const table: string = c.table;
  const key: string = c.key;
  const column: string = c.column;
  let n = 0;
  let after = '';
  for (;;) {
    const rows = await q.selectFrom(table).select([key, column]).where(key, '>', after).where(column, 'is not', null).orderBy(key).limit(500).execute();
    if (!rows.length) return n;
    after = String(rows[rows.length - 1]![key]);
    for (const r of rows) {
      const stored = r[column]!;
      if (!box.stale(stored)) continue;
      let plain: string;
      try {
        plain = box.open(stored);
      } catch {
        continue;
      }
      const out = await q
        .updateTable(table)
        .set({ [column]: box.seal(plain) })
        .where(key, '=', r[key]!)
        .where(column, '=', stored)
        .executeTakeFirst();
      n += Number(out.numUpdatedRows);
    }
  }
}
