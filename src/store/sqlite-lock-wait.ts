import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';

// better-sqlite3 runs a statement synchronously, and SQLite's own busy handler
// (`busy_timeout`) sleeps inside that call: while the ingestion worker holds the write
// lock, an autocommit write on the API thread (an alert cursor, a sweep) froze every
// request of the process for up to the worker's whole transaction. Instead the
// connection has no busy timeout, and a statement refused with SQLITE_BUSY is tried
// again on a timer, so the thread serves requests while the statement waits
// (docs/ingestion.md "Waiting for the write lock").
//
// Only plain SQLITE_BUSY is retried. SQLITE_BUSY_SNAPSHOT (a transaction whose snapshot
// is older than the last commit) cannot succeed by waiting and is reported at once, as
// SQLite's busy handler does. Kysely holds the single connection for the whole
// transaction (its connection mutex), so a retried statement never interleaves with
// another caller's.

/** Pauses between attempts, close to SQLite's own busy handler; the last repeats. */
const BACKOFF_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

export interface LockWaitOptions {
  /** Longest wait for the lock, after which SQLITE_BUSY is reported ('unavailable'). */
  timeoutMs: number;
  /** The pause before retry `attempt` (0-based); tests may shorten it. */
  backoffMs?: (attempt: number) => number;
}

const isBusy = (err: unknown) => (err as { code?: unknown })?.code === 'SQLITE_BUSY';
const defaultBackoff = (attempt: number) => BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work` until it is not refused with SQLITE_BUSY, or the wait passes `timeoutMs`. */
export async function waitingForLock<T>(work: () => Promise<T>, opts: LockWaitOptions): Promise<T> {
  const backoff = opts.backoffMs ?? defaultBackoff;
  const deadline = Date.now() + opts.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const wait = backoff(attempt);
      if (!isBusy(err) || Date.now() + wait > deadline) throw err;
      await pause(wait);
    }
  }
}

class LockWaitingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  private readonly opts: LockWaitOptions;

  constructor(inner: DatabaseConnection, opts: LockWaitOptions) {
    this.inner = inner;
    this.opts = opts;
  }
  executeQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> {
    return waitingForLock(() => this.inner.executeQuery<R>(query), this.opts);
  }
  streamQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0], chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * The SQLite dialect whose statements wait for the write lock asynchronously. The
 * database handed to the dialect must have `busy_timeout = 0`, or SQLite would still
 * block the thread before reporting SQLITE_BUSY.
 */
export function waitingForWriteLock(dialect: Dialect, opts: LockWaitOptions): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => lockWaitingDriver(dialect.createDriver(), opts),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

function lockWaitingDriver(inner: Driver, opts: LockWaitOptions): Driver {
  const innerOf = (c: DatabaseConnection) => (c instanceof LockWaitingConnection ? c.inner : c);
  // The driver issues begin/commit/rollback and savepoints through the connection it is
  // given: handing it ours makes those wait for the lock too (a deferred BEGIN takes no
  // lock, but COMMIT can be refused while a checkpoint runs).
  return {
    init: () => inner.init(),
    acquireConnection: async () => new LockWaitingConnection(await inner.acquireConnection(), opts),
    beginTransaction: (c, settings) => inner.beginTransaction(c, settings),
    commitTransaction: (c) => inner.commitTransaction(c),
    rollbackTransaction: (c) => inner.rollbackTransaction(c),
    savepoint: (c, name, compile) => inner.savepoint!(c, name, compile),
    rollbackToSavepoint: (c, name, compile) => inner.rollbackToSavepoint!(c, name, compile),
    releaseSavepoint: (c, name, compile) => inner.releaseSavepoint!(c, name, compile),
    releaseConnection: (c) => inner.releaseConnection(innerOf(c)),
    destroy: () => inner.destroy(),
  };
}
