import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Runs `fn` in a transaction: the executor's own when the repository was built over one
 * (`repositoriesOn(trx)`, several changes committed together, docs/services.md "Config as
 * code"), else a new one. The same statements either way.
 */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
}
